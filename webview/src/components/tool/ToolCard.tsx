import { memo } from 'react';
import { useActions } from '../../app/context';
import type { ToolItem, ToolStatus } from '../../state/types';
import { Icon } from '../../ui/Icon';
import { Elapsed } from './Elapsed';
import { resultState } from './tool-state';
import { ToolDetails } from './ToolDetails';
import './tool-card.css';

const statusIcons: Record<ToolStatus, { icon: string; spin?: boolean; label: string }> = {
  running: { icon: 'loading', spin: true, label: 'running' },
  ok: { icon: 'check', label: 'done' },
  error: { icon: 'error', label: 'failed' },
  stopped: { icon: 'circle-slash', label: 'stopped' },
};

/** The last non-empty line of streamed output: what a running card shows of it on its one line. */
function lastLine(output: string): string {
  const lines = output.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] as string).trim();
    if (line) return line;
  }
  return '';
}

/**
 * One line per tool call: status, the call's title ("read src/a.ts"; the tool's name when it has
 * none), its summary, the latest output line and elapsed time while running, and whether the model
 * got a pruned result, a stub or a refusal. Title and summary come computed from core (the events,
 * the replay); the card shows them as they are. Click to open the arguments and the result as the
 * model saw it.
 */
export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const actions = useActions();
  const status = statusIcons[item.status];
  const state = resultState(item);
  const running = item.status === 'running';
  const tail = running ? lastLine(item.output) : '';
  const title = item.title || item.tool;
  return (
    <div
      className="tool-card"
      data-kind="tool"
      data-status={item.status}
      data-call-id={item.callId}
      data-tool={item.tool}
      data-state={state?.state}
      data-expanded={item.expanded ? 'true' : 'false'}
    >
      <button type="button" className="tool-line" aria-expanded={!!item.expanded} onClick={() => actions.toggleTool(item.id)}>
        <Icon name={status.icon} spin={status.spin ?? false} className="tool-status" />
        <span className="visually-hidden">{status.label}: </span>
        <span className="tool-title" title={title === item.tool ? undefined : `${title} (${item.tool})`}>
          {title}
        </span>
        <span className="tool-summary">{item.summary}</span>
        {tail ? <span className="tool-tail">{tail}</span> : null}
        {state ? (
          <span className="tool-badge" data-state={state.state} title={state.explain}>
            {state.label}
          </span>
        ) : null}
        {item.errorCode ? <span className="tool-error-code">{item.errorCode}</span> : null}
        <Elapsed running={running} {...(item.startedAt !== undefined ? { startedAt: item.startedAt } : {})} {...(item.endedAt !== undefined ? { endedAt: item.endedAt } : {})} />
        <Icon name={item.expanded ? 'chevron-up' : 'chevron-down'} className="tool-chevron" />
      </button>
      {item.expanded ? <ToolDetails item={item} /> : null}
    </div>
  );
});
