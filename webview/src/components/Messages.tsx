import { memo, type ReactNode } from 'react';
import { useActions, useChat } from '../app/context';
import { Markdown } from '../markdown/Markdown';
import { canRetry } from '../state/selectors';
import type { AssistantItem, ErrorItem, NoticeItem, ToolsLoadedItem, UserItem } from '../state/types';
import { Icon } from '../ui/Icon';

/**
 * The user's message: plain text as typed (never Markdown-rendered), plus attached image names and
 * its `action` (restore). One sent during a turn says so: the model read it at one of the turn's steps.
 */
export const UserMessage = memo(function UserMessage({ item, action }: { item: UserItem; action?: ReactNode }) {
  return (
    <div className="message user" data-kind="user" data-pending={item.pending ? 'true' : undefined} data-during-turn={item.duringTurn ? 'true' : undefined}>
      {item.duringTurn ? <div className="user-during-turn">sent during the turn</div> : null}
      <div className="user-text">{item.text}</div>
      {item.images?.length ? (
        <div className="user-images">
          {item.images.map((img, i) => (
            <span key={i} className="image-chip">
              <Icon name="file-media" /> {img.name} ({img.width}×{img.height})
            </span>
          ))}
        </div>
      ) : null}
      {action}
    </div>
  );
});

export const AssistantMessage = memo(function AssistantMessage({ item }: { item: AssistantItem }) {
  return (
    <div className="message assistant" data-kind="assistant" data-streaming={item.streaming ? 'true' : 'false'} aria-busy={item.streaming}>
      {item.reasoning ? <Reasoning text={item.reasoning} thinking={item.streaming && !item.text} /> : null}
      {item.text || !item.reasoning ? <Markdown text={item.text} streaming={item.streaming} /> : null}
    </div>
  );
});

/**
 * The model's reasoning, collapsed under one line ("Thinking…" while it streams, "Thought" after),
 * as plain text: it is the model's scratch work, not an answer to render.
 */
const Reasoning = memo(function Reasoning({ text, thinking }: { text: string; thinking: boolean }) {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return (
    <details className="reasoning" data-kind="reasoning">
      <summary>
        <Icon name="lightbulb" /> {thinking ? 'Thinking…' : 'Thought'} <span className="reasoning-size">({words} {words === 1 ? 'word' : 'words'})</span>
      </summary>
      <div className="reasoning-text">{text}</div>
    </details>
  );
});

/** `loaded git_diff, git_commit`: deferred tools that became available in this session. */
export const ToolsLoadedChip = memo(function ToolsLoadedChip({ item }: { item: ToolsLoadedItem }) {
  return (
    <div className="chip-row" data-kind="tools.loaded">
      <span className="chip">
        <Icon name="tools" /> loaded {item.tools.join(', ')}
      </span>
    </div>
  );
});

/** An error; one from the provider in the latest turn offers Retry (the host runs the last prompt again). */
export const ErrorNote = memo(function ErrorNote({ item }: { item: ErrorItem }) {
  const retry = useChat((s) => canRetry(s, item.id));
  const actions = useActions();
  return (
    <div className="error-note" data-kind="error" data-error-kind={item.errorKind} role="alert">
      <Icon name="error" />
      <span className="error-message">{item.message}</span>
      {retry ? (
        <button type="button" className="error-retry" onClick={() => actions.retry()}>
          <Icon name="refresh" /> Retry
        </button>
      ) : null}
    </div>
  );
});

export const Notice = memo(function Notice({ item }: { item: NoticeItem }) {
  return (
    <div className="notice" data-kind="notice">
      {item.text}
    </div>
  );
});
