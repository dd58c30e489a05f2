/** The money budget's vocabulary (agent.budget): what a pause asks and what the user can answer. */

export type BudgetScope = 'turn' | 'session';

/** The budgets in force: per turn and per session, in the units of the price table (null: none). */
export interface BudgetLimits {
  turn: number | null;
  session: number | null;
}

/** What the turn and the session have cost so far. */
export interface Spent {
  turn: number;
  session: number;
}

/** A budget the next request would pass: which one, its limit, and what was spent against it. */
export interface PassedBudget {
  scope: BudgetScope;
  limit: number;
  spent: number;
}

/** The next request as the forecast expects it (tokens), and its cost. */
export interface ExpectedRequest {
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
  cost: number;
}

/** The question a pause puts to the user. */
export interface BudgetPause {
  /** The session the turn belongs to (a subagent's request pauses its parent's turn). */
  sessionId: string;
  round: number;
  model: string;
  expected: ExpectedRequest;
  /** At least one. */
  passes: PassedBudget[];
}

/**
 * The user's answer: send this one request and ask again at the next that passes (continue), set
 * new budgets for what was passed (raise: `turn` for this turn, `session` for this session, in this
 * window or run), or end the turn (stop).
 */
export type BudgetAnswer = { decision: 'continue' } | { decision: 'stop' } | { decision: 'raise'; turn?: number; session?: number };

/** Who answers a pause: the chat's card, the terminal; absent (or with nobody there) the turn stops. */
export interface BudgetAsker {
  ask(pause: BudgetPause, signal: AbortSignal): Promise<BudgetAnswer>;
}

/** The turn stops at the budget instead of sending the request: its message says why and what to do. */
export class BudgetStopped extends Error {}
