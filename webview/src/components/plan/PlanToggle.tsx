import { useActions, useChat } from '../../app/context';
import { Icon } from '../../ui/Icon';
import './plan.css';

/** The composer's plan toggle (also `/plan` and `/act`): on, only read tools run and the model answers with a plan to approve. */
export function PlanToggle() {
  const mode = useChat((s) => s.mode);
  const actions = useActions();
  const on = mode === 'plan';
  return (
    <button
      type="button"
      className="plan-toggle"
      data-testid="plan-toggle"
      aria-pressed={on}
      title={on ? 'Plan mode: read-only; the model proposes a plan for you to approve. Click for Act mode (/act).' : 'Plan mode: explore and plan without changing anything (/plan)'}
      onClick={() => actions.setMode(on ? 'code' : 'plan')}
    >
      <Icon name="checklist" /> Plan
    </button>
  );
}
