import type { KeyboardEvent } from 'react';
import { useActions, useChat } from '../app/context';
import { Icon } from './Icon';
import './composer.css';

/** The message box: Enter sends, Shift+Enter adds a line; Stop replaces Send while a turn runs. */
export function Composer() {
  const draft = useChat((s) => s.draft);
  const running = useChat((s) => s.running);
  const stopping = useChat((s) => s.stopping);
  const actions = useActions();
  const canSend = !running && draft.trim().length > 0;

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    actions.send();
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        actions.send();
      }}
    >
      <textarea
        className="composer-input"
        aria-label="Message Snowpea"
        placeholder={running ? 'Snowpea is working…' : 'Ask Snowpea…'}
        value={draft}
        rows={1}
        onChange={(e) => actions.setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        autoFocus
      />
      <div className="composer-bar">
        <ComposerStatus />
        {running ? (
          <button type="button" className="icon-button" aria-label="Stop" title="Stop" disabled={stopping} onClick={() => actions.stop()}>
            <Icon name="debug-stop" />
          </button>
        ) : (
          <button type="submit" className="icon-button primary" aria-label="Send" title="Send (Enter)" disabled={!canSend}>
            <Icon name="send" />
          </button>
        )}
      </div>
    </form>
  );
}

/** The model and how many tools the session has loaded. */
function ComposerStatus() {
  const session = useChat((s) => s.session);
  const loadedTools = useChat((s) => s.loadedTools);
  return (
    <div className="composer-status">
      {session?.model ? <span className="model">{session.model}</span> : null}
      {loadedTools.length ? (
        <span className="tools-count" title={loadedTools.join(', ')}>
          <Icon name="tools" />
          {loadedTools.length}
        </span>
      ) : null}
    </div>
  );
}
