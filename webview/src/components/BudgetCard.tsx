import { useState } from 'react';
import { useActions } from '../app/context';
import type { BudgetRequest } from '../state/types';
import { formatUsd } from './composer/meter-format';
import { Icon } from '../ui/Icon';
import { VisibleText } from './VisibleText';
import './budget.css';

type Scope = BudgetRequest['passes'][number]['scope'];

/** `this turn's budget of $0.050 ($0.048 spent)`, and the session's beside it. */
export function passedText(passes: BudgetRequest['passes']): string {
  return passes.map((p) => `this ${p.scope}'s budget of ${formatUsd(p.limit)} (${formatUsd(p.spent)} spent)`).join(' and ');
}

/** The least a raised budget must be for the request to go: what was spent plus its expected cost. */
function needed(p: BudgetRequest['passes'][number], cost: number): number {
  return p.spent + cost;
}

/** A first offer: twice the budget, or enough for a few more requests like this one, in whole cents. */
function suggestion(p: BudgetRequest['passes'][number], cost: number): string {
  const v = Math.max(p.limit * 2, p.spent + cost * 4);
  return (Math.ceil(v * 100) / 100).toFixed(2);
}

/**
 * The next request would pass a money budget: what it is expected to cost (and how much of its
 * prompt the provider's cache should serve), which budget it would pass, and the three answers:
 * continue once (this request only), raise the budget (a field per budget passed, checked to let
 * this request go), or stop the turn.
 */
export function BudgetCard({ request }: { request: BudgetRequest }) {
  const actions = useActions();
  const [amounts, setAmounts] = useState<Partial<Record<Scope, string>>>(() => Object.fromEntries(request.passes.map((p) => [p.scope, suggestion(p, request.cost)])));
  const cachedShare = request.promptTokens > 0 ? Math.round((request.cachedTokens / request.promptTokens) * 100) : 0;
  const problems = request.passes.flatMap((p) => {
    const text = amounts[p.scope] ?? '';
    const v = Number(text);
    if (!text.trim() || !Number.isFinite(v) || v <= 0) return [`Give the new ${p.scope} budget as an amount, e.g. ${suggestion(p, request.cost)}.`];
    if (v <= needed(p, request.cost)) return [`A ${p.scope} budget of ${formatUsd(v)} would stop this request again: it needs more than ${formatUsd(needed(p, request.cost))}.`];
    return [];
  });
  const raise = () => {
    if (problems.length) return;
    const values = Object.fromEntries(request.passes.map((p) => [p.scope, Number(amounts[p.scope])]));
    actions.replyBudget(request.id, { decision: 'raise', ...values });
  };
  return (
    <div className="request-card budget-card" data-kind="budget" role="group" aria-label="Budget reached">
      <div className="request-title">
        <Icon name="credit-card" /> <b>Budget reached</b>
      </div>
      <div className="budget-text" data-kind="budget-text">
        The next request to <VisibleText text={request.model} /> (~{formatUsd(request.cost)}, {cachedShare}% of its prompt expected from the cache) would pass {passedText(request.passes)}.
      </div>
      <form
        className="request-buttons budget-raise"
        onSubmit={(e) => {
          e.preventDefault();
          raise();
        }}
      >
        {request.passes.map((p) => (
          <label key={p.scope} className="budget-amount">
            New {p.scope} budget $
            <input
              aria-label={`New ${p.scope} budget`}
              inputMode="decimal"
              value={amounts[p.scope] ?? ''}
              onChange={(e) => {
                const value = e.target.value;
                setAmounts((a) => ({ ...a, [p.scope]: value }));
              }}
            />
          </label>
        ))}
        <button type="submit" className="primary" disabled={problems.length > 0}>
          Raise and continue
        </button>
      </form>
      {problems.length ? (
        <div className="request-reason" data-kind="budget-problem">
          <Icon name="warning" /> <span>{problems.join(' ')}</span>
        </div>
      ) : null}
      <div className="request-buttons">
        <button type="button" title="Send this request; the next one over the budget asks again" onClick={() => actions.replyBudget(request.id, { decision: 'continue' })}>
          Continue once
        </button>
        <button type="button" onClick={() => actions.replyBudget(request.id, { decision: 'stop' })}>
          Stop
        </button>
      </div>
    </div>
  );
}
