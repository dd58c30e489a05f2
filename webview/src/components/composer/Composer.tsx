import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { useActions, useChat } from '../../app/context';
import { Icon } from '../../ui/Icon';
import { Attachments } from './Attachments';
import { ComposerStatus, StatusPanelView, type StatusPanel } from './ComposerStatus';
import { MENTION_LIST_ID, MentionPopup, mentionOptionId } from './MentionPopup';
import { AgentChip } from '../agent/AgentChip';
import { PlanToggle } from '../plan/PlanToggle';
import { useMention } from './use-mention';
import { SLASH_LIST_ID, SlashMenu, slashOptionId } from './SlashMenu';
import { useSlashMenu } from './use-slash';
import './composer.css';

const hasFiles = (dt: DataTransfer | null) => !!dt && [...dt.types].includes('Files');

/**
 * The message box: Enter sends, Shift+Enter adds a line. While a turn runs it stays usable: Stop
 * sits beside Send, and a message sent then waits (read at the turn's next step, or sent when it
 * ends: chat.messagesDuringTurn, switchable per message above the box).
 * Images come by paste, drag-drop or the attach button; `@` offers workspace files and
 * `@problems`, `@terminal`, `@changes`; the status line picks the model and its effort.
 */
export function Composer() {
  const draft = useChat((s) => s.draft);
  const running = useChat((s) => s.running);
  const stopping = useChat((s) => s.stopping);
  const attachments = useChat((s) => s.attachments);
  const delivery = useChat((s) => s.queueDelivery);
  const actions = useActions();
  const textarea = useRef<HTMLTextAreaElement>(null);
  // Focus follows the view: when VS Code focuses the chat (click, Focus Chat), type at once.
  // No autoFocus on mount, which would steal focus from the command palette.
  useEffect(() => {
    const focus = () => textarea.current?.focus();
    window.addEventListener('focus', focus);
    return () => window.removeEventListener('focus', focus);
  }, []);
  const picker = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [panel, setPanel] = useState<StatusPanel>(null);
  const mention = useMention(draft, textarea);
  const slash = useSlashMenu(draft, textarea);

  const preparing = attachments.some((a) => a.status === 'processing');
  const hasImages = attachments.some((a) => a.status === 'ready');
  const canSend = !stopping && !preparing && (draft.trim().length > 0 || hasImages);
  const whileRunning = delivery === 'steer' ? 'read at its next step' : 'sent when it finishes';
  // While a turn runs the button is not "Send" (what tests and screen readers take for an idle chat): it says where the message goes.
  const sendLabel = running ? (delivery === 'steer' ? "Steer: read at the turn's next step" : 'Queue: sent when the turn ends') : 'Send';

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(e) || mention.onKeyDown(e)) return;
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    actions.send();
  };

  // Images on the clipboard are attached; text on it (if any) is still pasted as text.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (!files.length) return;
    if (!e.clipboardData.getData('text/plain')) e.preventDefault();
    actions.attachFiles(files);
  };

  const onDragOver = (e: DragEvent) => {
    if (!hasFiles(e.dataTransfer)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (e: DragEvent) => {
    setDragging(false);
    if (!e.dataTransfer.files.length) return;
    e.preventDefault();
    actions.attachFiles([...e.dataTransfer.files]);
    textarea.current?.focus();
  };

  return (
    <form
      className="composer"
      data-dragging={dragging ? 'true' : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        actions.send();
      }}
      onKeyDown={(e) => {
        // Escape closes an open status panel (the @ popup handles its own Escape first).
        if (e.key !== 'Escape' || !panel || e.defaultPrevented) return;
        setPanel(null);
        // The model picker had the focus (its filter box): back to the message.
        if (panel === 'models') textarea.current?.focus();
      }}
      onDragOver={onDragOver}
      onDragLeave={(e) => e.currentTarget === e.target && setDragging(false)}
      onDrop={onDrop}
    >
      <StatusPanelView
        panel={panel}
        onClose={() => {
          setPanel(null);
          textarea.current?.focus();
        }}
      />
      <AgentChip />
      <Attachments />
      <div className="composer-field">
        <MentionPopup state={mention} />
        <SlashMenu state={slash} />
        <textarea
          ref={textarea}
          className="composer-input"
          aria-label="Message Snowpea"
          placeholder={running ? `Snowpea is working… a message now is ${whileRunning}` : 'Ask Snowpea… (@ for files, paste or drop images)'}
          value={draft}
          rows={1}
          aria-autocomplete="list"
          aria-controls={slash.open ? SLASH_LIST_ID : mention.open ? MENTION_LIST_ID : undefined}
          aria-activedescendant={slash.open ? slashOptionId(slash.active) : mention.open && mention.matches.length ? mentionOptionId(mention.active) : undefined}
          onChange={(e) => {
            actions.setDraft(e.target.value);
            mention.trackCaret(e.target);
            slash.trackCaret(e.target);
          }}
          onSelect={(e) => (mention.trackCaret(e.currentTarget), slash.trackCaret(e.currentTarget))}
          onBlur={() => (mention.close(), slash.close())}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          data-testid="composer"
        />
      </div>
      <div className="composer-bar">
        <button type="button" className="icon-button" aria-label="Attach images" title="Attach images" onClick={() => picker.current?.click()}>
          <Icon name="file-media" />
        </button>
        <input
          ref={picker}
          type="file"
          accept="image/*"
          multiple
          hidden
          aria-label="Choose images"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length) actions.attachFiles(files);
          }}
        />
        <PlanToggle />
        <ComposerStatus panel={panel} onToggle={(p) => setPanel(panel === p ? null : p)} />
        {running ? (
          <button type="button" className="icon-button" aria-label="Stop" title="Stop" disabled={stopping} onClick={() => actions.stop()}>
            <Icon name="debug-stop" />
          </button>
        ) : null}
        <button
          type="submit"
          className="icon-button primary"
          aria-label={sendLabel}
          title={preparing ? 'Preparing images…' : `${sendLabel} (Enter)`}
          disabled={!canSend}
        >
          <Icon name="send" />
        </button>
      </div>
    </form>
  );
}
