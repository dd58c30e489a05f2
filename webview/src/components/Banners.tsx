import { useActions, useChat } from '../app/context';
import { Icon } from './Icon';

/** First run and Restricted Mode: what the user needs to know before typing. */
export function SessionNotices() {
  const session = useChat((s) => s.session);
  const actions = useActions();
  if (!session) return null;
  return (
    <>
      {session.setupNeeded ? (
        <div className="banner info" data-kind="setup" role="status">
          <Icon name="gear" />
          <span>
            Snowpea needs a model to talk to: an API key for the OpenAI endpoint, or <code>snowpea.model.baseUrl</code> pointed at
            another server (Ollama, LM Studio, OpenRouter, ...).
          </span>
          <button type="button" className="banner-action" onClick={() => actions.runCommand('snowpea.setApiKey')}>
            Set API Key
          </button>
          <button type="button" className="banner-action" onClick={() => actions.runCommand('snowpea.openSettings')}>
            Open Settings
          </button>
        </div>
      ) : null}
      {!session.workspaceTrusted ? (
        <div className="banner warning" data-kind="restricted" role="status">
          <Icon name="shield" />
          <span>
            Restricted Mode: this workspace is not trusted, so Snowpea runs read tools only (no writes, commands or git) and ignores
            the workspace's model endpoint, browser settings and MCP servers.
          </span>
        </div>
      ) : null}
    </>
  );
}

/** The repeat guard thinks the agent is going in circles. */
export function LoopBanner() {
  const loop = useChat((s) => s.loop);
  const running = useChat((s) => s.running);
  const actions = useActions();
  if (!loop) return null;
  return (
    <div className="banner warning" data-kind="loop" role="alert">
      <Icon name="sync" />
      <span>
        Possible loop: <code>{loop.tool}</code> was called {loop.count} times with the same arguments.
      </span>
      {running ? (
        <button type="button" className="banner-action" onClick={() => actions.stop()}>
          Stop the turn
        </button>
      ) : null}
      <button type="button" className="icon-button" aria-label="Dismiss" title="Dismiss" onClick={() => actions.dismissLoop()}>
        <Icon name="close" />
      </button>
    </div>
  );
}

/** The provider asked us to wait (429, 5xx): say so instead of looking stuck. */
export function RetryStatus() {
  const retry = useChat((s) => s.retry);
  if (!retry) return null;
  const seconds = Math.max(1, Math.round(retry.delayMs / 1000));
  return (
    <div className="banner info" data-kind="retry" role="status">
      <Icon name="history" />
      <span>
        Retrying (attempt {retry.attempt}) in {seconds}s: {retry.reason}
      </span>
    </div>
  );
}
