import { useActions, useChat } from '../app/context';
import { Icon } from './Icon';

/** What Restricted Mode turns off, and how to lift it (the first-run card and the Restricted Mode notice say the same). */
function RestrictedMode({ kind }: { kind?: string }) {
  const actions = useActions();
  return (
    <div className="banner-section" data-kind={kind}>
      <span className="banner-text">
        <strong>This folder is in Restricted Mode.</strong> Until you trust it, Snowpea runs read tools only: no file writes, commands
        or git, and it ignores the workspace's MCP servers and model endpoint (and browser settings). To trust the folder, use Manage
        Workspace Trust (also in the Command Palette) and choose Trust.
      </span>
      <div className="banner-actions">
        <button type="button" className="banner-action" onClick={() => actions.runCommand('workbench.trust.manage')}>
          Manage Workspace Trust
        </button>
      </div>
    </div>
  );
}

/** First run and Restricted Mode: what the user needs to know before typing. */
export function SessionNotices() {
  const session = useChat((s) => s.session);
  const actions = useActions();
  if (!session) return null;
  if (session.setupNeeded) {
    // The first-run card: a model to talk to, and (when so) that the folder is not trusted yet.
    return (
      <div className="banner info" data-kind="setup" role="status">
        <Icon name="gear" />
        <div className="banner-body">
          <div className="banner-section">
            <span className="banner-text">
              Snowpea needs a model to talk to: an API key for the OpenAI endpoint, or <code>snowpea.model.baseUrl</code> pointed at
              another server (Ollama, LM Studio, OpenRouter, ...).
            </span>
            <div className="banner-actions">
              <button type="button" className="banner-action" onClick={() => actions.runCommand('snowpea.setApiKey')}>
                Set API Key
              </button>
              <button type="button" className="banner-action" onClick={() => actions.runCommand('snowpea.openSettings')}>
                Open Settings
              </button>
            </div>
          </div>
          {!session.workspaceTrusted ? <RestrictedMode kind="restricted" /> : null}
        </div>
      </div>
    );
  }
  if (session.workspaceTrusted) return null;
  return (
    <div className="banner warning" data-kind="restricted" role="status">
      <Icon name="shield" />
      <div className="banner-body">
        <RestrictedMode />
      </div>
    </div>
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
