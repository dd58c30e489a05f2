import { useActions, useChat } from '../../app/context';
import { Icon } from '../../ui/Icon';
import './plan.css';

/** After a plan-mode turn answered: approve the plan into act mode (the model then carries it out), or keep planning by writing. */
export function PlanApproval() {
  const planReady = useChat((s) => s.planReady);
  const mode = useChat((s) => s.mode);
  const running = useChat((s) => s.running);
  const actions = useActions();
  if (!planReady || mode !== 'plan' || running) return null;
  return (
    <div className="plan-approval" data-testid="plan-approval" role="group" aria-label="Plan ready">
      <span className="plan-approval-text">Plan ready. Nothing was changed; write to refine it, or</span>
      <button type="button" className="plan-approve" onClick={() => actions.approvePlan()}>
        <Icon name="check" /> Approve plan → switch to Act
      </button>
    </div>
  );
}
