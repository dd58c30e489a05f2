import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useActions, useChat } from '../../app/context';
import { Icon } from '../../ui/Icon';
import './restore.css';

/**
 * The restore action of a user message: a small history button that opens two choices, files
 * back to before this message, or that and the conversation rewound to before it. The host
 * lists the files and asks before anything changes. Unavailable while a turn runs.
 */
export function RestoreAction({ itemId, turn }: { itemId: string; turn: number }) {
  const actions = useActions();
  const running = useChat((s) => s.running);
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  const choicesId = `restore-${itemId}`;
  const shown = open && !running;

  useEffect(() => {
    if (shown) first.current?.focus();
  }, [shown]);
  // A turn that starts closes the choices; they do not come back when it ends.
  useEffect(() => {
    if (running) setOpen(false);
  }, [running]);

  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  const choose = (rewind: boolean) => {
    close();
    actions.restoreCheckpoint(turn, rewind);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    close();
  };

  return (
    <div className="restore-action" data-kind="restore" onKeyDown={onKeyDown}>
      <button
        ref={trigger}
        type="button"
        className="restore-trigger"
        aria-label={`Restore checkpoint of message ${turn}`}
        title={running ? 'Restore is available once the turn has finished' : 'Restore checkpoint: the files (and the conversation) as they were before this message'}
        aria-expanded={shown}
        aria-controls={shown ? choicesId : undefined}
        disabled={running}
        onClick={() => setOpen(!open)}
      >
        <Icon name="history" />
      </button>
      {shown ? (
        <div className="restore-choices" id={choicesId} role="group" aria-label={`Restore to before message ${turn}`}>
          <button ref={first} type="button" title="Put back every file changed since this message was sent (you confirm the list first)" onClick={() => choose(false)}>
            <Icon name="discard" /> Restore files to before this message
          </button>
          <button type="button" title="Restore the files and take the conversation back to before this message (it stays stored)" onClick={() => choose(true)}>
            <Icon name="debug-step-back" /> Restore and rewind
          </button>
        </div>
      ) : null}
    </div>
  );
}
