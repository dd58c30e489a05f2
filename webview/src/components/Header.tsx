import { useChat } from '../app/context';

/**
 * The chat's title. New Chat and Resume Session are the view's own title-bar actions
 * (package.json view/title), so the webview does not repeat them.
 */
export function Header() {
  const title = useChat((s) => s.session?.title ?? 'New chat');
  return (
    <header className="chat-header" data-kind="header">
      <span className="chat-title" title={title}>
        {title}
      </span>
    </header>
  );
}
