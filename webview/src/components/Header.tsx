import { useActions, useChat } from '../app/context';
import { Icon } from '../ui/Icon';

/**
 * The chat's title. New Chat and Resume Session are the view's own title-bar actions
 * (package.json view/title), so the webview does not repeat them. In Restricted Mode with its
 * notice closed, a shield here opens the notice again.
 */
export function Header() {
  const title = useChat((s) => s.session?.title ?? 'New chat');
  const restricted = useChat((s) => !!s.session && !s.session.workspaceTrusted);
  const dismissed = useChat((s) => s.restrictedDismissed ?? false);
  const actions = useActions();
  return (
    <header className="chat-header" data-kind="header">
      <span className="chat-title" title={title}>
        {title}
      </span>
      {restricted && dismissed ? (
        <button
          type="button"
          className="icon-button restricted-badge"
          data-kind="restricted-badge"
          aria-label="Restricted Mode"
          title="Restricted Mode: read tools only. Show the notice"
          onClick={() => actions.showRestrictedNotice(true)}
        >
          <Icon name="shield" />
          <span className="restricted-badge-text">Restricted</span>
        </button>
      ) : null}
    </header>
  );
}
