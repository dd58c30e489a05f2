/**
 * The budget's rules, apart from where the numbers come from: which budgets the next request would
 * pass, what a raise changes, and what the turn says when it stops.
 */
import { formatMoney } from './format';
import type { BudgetAnswer, BudgetLimits, BudgetScope, ExpectedRequest, PassedBudget, Spent } from './types';
import { SessionStates } from '../../conversation/session-states';

const SCOPES: BudgetScope[] = ['turn', 'session'];

/** The budgets that spending `cost` more would pass (spent + cost above the limit); none without budgets. */
export function passedBudgets(limits: BudgetLimits, spent: Spent, cost: number): PassedBudget[] {
  const out: PassedBudget[] = [];
  for (const scope of SCOPES) {
    const limit = limits[scope];
    if (limit !== null && spent[scope] + cost > limit) out.push({ scope, limit, spent: spent[scope] });
  }
  return out;
}

/** `this turn's budget of $0.050 ($0.048 spent)`, and the session's beside it. */
export function passedText(passes: readonly PassedBudget[]): string {
  return passes.map((p) => `this ${p.scope}'s budget of ${formatMoney(p.limit)} (${formatMoney(p.spent)} spent)`).join(' and ');
}

/** `~$0.0040, 80% of its prompt expected from the cache` */
export function expectedText(e: ExpectedRequest): string {
  const share = e.promptTokens > 0 ? Math.round((e.cachedTokens / e.promptTokens) * 100) : 0;
  return `~${formatMoney(e.cost)}, ${share}% of its prompt expected from the cache`;
}

/** What a turn stopped at the budget says: what would have been passed, and how to go on. */
export function stopMessage(passes: readonly PassedBudget[], expected: ExpectedRequest): string {
  return `Stopped at the budget: the next request (${expectedText(expected)}) would pass ${passedText(passes)}. Send a message to go on, or raise the budget (snowpea.agent.budget; snowpea run --budget).`;
}

interface Raise {
  /** The setting's value when the user raised it: once the setting changes, the setting wins. */
  from: number | null;
  to: number;
}

/**
 * Budgets the user raised in a pause, over the settings. A session's raise holds for the session in
 * this window or run; a turn's for that turn only. A raise holds while the setting it raised stays
 * as it was (an edited setting is the newer word). A "raise" to no more than the budget in force
 * changes nothing (the pause asks again).
 */
export class BudgetRaises {
  private readonly turns: Map<string, Raise & { turn: number }>;
  private readonly sessions: Map<string, Raise>;

  constructor(states: SessionStates = new SessionStates()) {
    this.turns = states.slice('budget raise, turn');
    this.sessions = states.slice('budget raise, session');
  }

  /** The budgets in force for the session's turn `turn`, given the settings' `set`. */
  limits(sessionId: string, turn: number, set: BudgetLimits): BudgetLimits {
    const t = this.turns.get(sessionId);
    const s = this.sessions.get(sessionId);
    return {
      turn: t && t.turn === turn && t.from === set.turn ? t.to : set.turn,
      session: s && s.from === set.session ? s.to : set.session,
    };
  }

  /** Applies a raise answered for `passes` (other scopes in the answer are ignored: only a budget that stopped the request is raised). */
  apply(sessionId: string, turn: number, set: BudgetLimits, passes: readonly PassedBudget[], answer: Extract<BudgetAnswer, { decision: 'raise' }>): void {
    const now = this.limits(sessionId, turn, set);
    for (const p of passes) {
      const to = answer[p.scope];
      if (to === undefined || !Number.isFinite(to) || to <= (now[p.scope] ?? Infinity)) continue;
      if (p.scope === 'turn') this.turns.set(sessionId, { turn, from: set.turn, to });
      else this.sessions.set(sessionId, { from: set.session, to });
    }
  }
}
