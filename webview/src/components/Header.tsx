import { useActions, useChat } from '../app/context';
import { Icon } from './Icon';

/** The chat's title with New chat and History (the host's Resume Session picker). */
export function Header() {
  const title = useChat((s) => s.session?.title ?? 'New chat');
  const actions = useActions();
  return (
    <header className="chat-header" data-kind="header">
      <span className="chat-title" title={title}>
        {title}
      </span>
      <button type="button" className="icon-button" aria-label="History" title="Resume a previous session" onClick={() => actions.history()}>
        <Icon name="history" />
      </button>
      <button type="button" className="icon-button" aria-label="New chat" title="New chat" onClick={() => actions.newChat()}>
        <Icon name="add" />
      </button>
    </header>
  );
}
