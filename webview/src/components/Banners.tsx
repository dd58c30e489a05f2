import { useState } from 'react';
import { useActions, useChat } from '../app/context';
import { Icon } from '../ui/Icon';

/** What Restricted Mode turns off, and how to lift it: the notice's details (and its tooltip). */
const RESTRICTED_DETAIL =
  "Until you trust this folder, Snowpea runs read tools only: no file writes, commands or git, and it ignores the workspace's MCP servers and model endpoint (and browser settings). To trust the folder, use Manage Workspace Trust (also in the Command Palette) and choose Trust.";

/** A setting's name that breaks only after its dots in a narrow view (never inside a word). */
function SettingName({ name }: { name: string }) {
  const parts = name.split('.');
  return (
    <code className="setting-name">
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 ? (
            <>
              .<wbr />
            </>
          ) : null}
        </span>
      ))}
    </code>
  );
}

/** The icon button that opens or closes a notice's details. */
function MoreToggle({ open, label, onToggle }: { open: boolean; label: string; onToggle(): void }) {
  return (
    <button type="button" className="icon-button banner-more-toggle" aria-label={label} title={label} aria-expanded={open} onClick={onToggle}>
      <Icon name={open ? 'chevron-up' : 'info'} />
    </button>
  );
}

/** First run: one line and the two buttons that fix it; what it means opens on request. */
function SetupCard() {
  const actions = useActions();
  const [open, setOpen] = useState(false);
  return (
    <div className="banner info" data-kind="setup" role="status">
      <Icon name="gear" />
      <div className="banner-body">
        <div className="banner-row">
          <span className="banner-text">Snowpea needs a model to talk to.</span>
          <div className="banner-actions">
            <button type="button" className="banner-action" onClick={() => actions.runCommand('snowpea.setApiKey')}>
              Set API Key
            </button>
            <button type="button" className="banner-action" onClick={() => actions.runCommand('snowpea.openSettings')}>
              Open Settings
            </button>
          </div>
        </div>
        {open ? (
          <p className="banner-more" data-kind="setup-details">
            An API key for the OpenAI endpoint, or <SettingName name="snowpea.model.baseUrl" /> pointed at another server (Ollama, LM Studio, OpenRouter, ...). The
            model name, <SettingName name="snowpea.model.name" />, is sent to that server too.
          </p>
        ) : null}
      </div>
      <MoreToggle open={open} label="More about setting up a model" onToggle={() => setOpen(!open)} />
    </div>
  );
}

/** Restricted Mode: a one-line notice with its button; the details open on request, and it can be closed. */
function RestrictedNotice() {
  const actions = useActions();
  const [open, setOpen] = useState(false);
  return (
    <div className="banner warning" data-kind="restricted" role="status">
      <Icon name="shield" />
      <div className="banner-body">
        <div className="banner-row">
          <span className="banner-text" title={RESTRICTED_DETAIL}>
            <strong>Restricted Mode:</strong> read tools only.
          </span>
          <div className="banner-actions">
            <button type="button" className="banner-action" onClick={() => actions.runCommand('workbench.trust.manage')}>
              Manage Workspace Trust
            </button>
          </div>
        </div>
        {open ? (
          <p className="banner-more" data-kind="restricted-details">
            This folder is in Restricted Mode. {RESTRICTED_DETAIL}
          </p>
        ) : null}
      </div>
      <MoreToggle open={open} label="More about Restricted Mode" onToggle={() => setOpen(!open)} />
      <button
        type="button"
        className="icon-button"
        aria-label="Close the Restricted Mode notice"
        title="Close (the shield in the header shows it again)"
        onClick={() => actions.showRestrictedNotice(false)}
      >
        <Icon name="close" />
      </button>
    </div>
  );
}

/**
 * First run and Restricted Mode: what the user needs to know before typing, each compact, and
 * together never more than a small share of the view (they scroll inside it): the composer stays.
 */
export function SessionNotices() {
  const session = useChat((s) => s.session);
  const dismissed = useChat((s) => s.restrictedDismissed ?? false);
  if (!session) return null;
  const restricted = !session.workspaceTrusted && !dismissed;
  if (!session.setupNeeded && !restricted) return null;
  return (
    <div className="notices" data-testid="notices">
      {session.setupNeeded ? <SetupCard /> : null}
      {restricted ? <RestrictedNotice /> : null}
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
