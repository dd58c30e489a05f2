import { useState, type KeyboardEvent } from 'react';
import { useActions, useChat } from '../../app/context';
import type { QueuedItem } from '../../state/types';
import { Icon } from '../../ui/Icon';
import { VisibleText } from '../VisibleText';
import './queue.css';

/** The delivery a message has, as its switch says it (and what a click switches to). */
const DELIVERY = {
  steer: { label: 'Next step', title: "Read at the turn's next step, after the running tools finish. Click: run it after the turn instead." },
  queue: { label: 'After turn', title: "Runs as a new message when the turn ends. Click: have it read at the turn's next step instead." },
} as const;

/**
 * Messages sent while a turn runs, waiting above the composer in the order sent: each can switch
 * between the turn's next step and after the turn, be edited (its images stay) or removed until it
 * is read. After a Stop or a failed turn they wait for the user: Send now runs one, and the rest follow.
 */
export function QueuedMessages() {
  const queue = useChat((s) => s.queue);
  const held = useChat((s) => s.queueHeld);
  const running = useChat((s) => s.running);
  if (!queue.length) return null;
  return (
    <section className="queued-messages" data-testid="queue" aria-label="Waiting messages">
      <div className="queued-head">
        {held ? 'Waiting: the turn stopped, so nothing here is sent until you send one.' : running ? `${queue.length} waiting while Snowpea works` : `${queue.length} waiting`}
      </div>
      <ol className="queued-items">
        {queue.map((item) => (
          <QueuedRow key={item.id} item={item} canSendNow={!running} />
        ))}
      </ol>
    </section>
  );
}

function QueuedRow({ item, canSendNow }: { item: QueuedItem; canSendNow: boolean }) {
  const actions = useActions();
  const [editing, setEditing] = useState<string | null>(null);
  const delivery = DELIVERY[item.delivery];
  const save = () => {
    if (editing === null) return;
    if (editing.trim() || item.images?.length) actions.editQueued(item.id, editing.trim() ? editing : '');
    setEditing(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setEditing(null);
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      save();
    }
  };
  return (
    <li className="queued-item" data-testid="queued-message" data-delivery={item.delivery}>
      {editing === null ? (
        <span className="queued-text">
          <VisibleText text={item.text} />
          {item.images?.map((img, i) => (
            <span key={i} className="image-chip">
              <Icon name="file-media" /> {img.name}
            </span>
          ))}
        </span>
      ) : (
        <textarea
          className="queued-edit"
          aria-label="Edit waiting message"
          value={editing}
          autoFocus
          rows={2}
          onChange={(e) => setEditing(e.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
      <span className="queued-actions">
        {editing === null ? (
          <>
            <button
              type="button"
              className="queued-delivery"
              title={delivery.title}
              aria-label={`${delivery.label}: ${delivery.title}`}
              onClick={() => actions.setQueuedDelivery(item.id, item.delivery === 'steer' ? 'queue' : 'steer')}
            >
              <Icon name={item.delivery === 'steer' ? 'debug-step-over' : 'history'} /> {delivery.label}
            </button>
            {canSendNow ? (
              <button type="button" className="icon-button" aria-label="Send now" title="Send now" onClick={() => actions.sendQueuedNow(item.id)}>
                <Icon name="send" />
              </button>
            ) : null}
            <button type="button" className="icon-button" aria-label="Edit" title="Edit" onClick={() => setEditing(item.text)}>
              <Icon name="edit" />
            </button>
            <button type="button" className="icon-button" aria-label="Remove" title="Remove" onClick={() => actions.removeQueued(item.id)}>
              <Icon name="close" />
            </button>
          </>
        ) : (
          <>
            <button type="button" className="icon-button" aria-label="Save" title="Save (Enter)" onClick={save}>
              <Icon name="check" />
            </button>
            <button type="button" className="icon-button" aria-label="Cancel" title="Cancel (Escape)" onClick={() => setEditing(null)}>
              <Icon name="discard" />
            </button>
          </>
        )}
      </span>
    </li>
  );
}
