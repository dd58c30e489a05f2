import { useActions, useChat } from '../../app/context';
import { Icon } from '../../ui/Icon';
import { VisibleText } from '../VisibleText';
import './agent-chip.css';

/**
 * The custom agent the chat runs as (`/agent NAME`), on a row of its own above the message (the bar below has no room
 * for it at the side bar's default width); its close button goes back to Snowpea. Nothing when none.
 */
export function AgentChip() {
  const agent = useChat((s) => s.session?.agent);
  const actions = useActions();
  if (!agent) return null;
  return (
    <div className="composer-agent">
      <span className="agent-chip" data-testid="agent-chip" title={`The chat runs as the ${agent} agent: its instructions, and only the tools its file allows (/agent alone goes back to Snowpea)`}>
        <Icon name="person" />
        <span className="agent-chip-name">
          <VisibleText text={agent} />
        </span>
        <button type="button" className="agent-chip-close" aria-label={`Stop running as ${agent}`} title="Back to Snowpea" onClick={() => actions.setAgent(null)}>
          <Icon name="close" />
        </button>
      </span>
    </div>
  );
}
