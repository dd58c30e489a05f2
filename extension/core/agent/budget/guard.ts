/**
 * The money budget (agent.budget) at the loop's pre-request hook: before each model request the
 * forecast prices it like the meter does; the chat's meter is told (`cost.next`), and when the
 * request would pass the turn's or the session's budget the turn pauses and asks (continue once,
 * raise, stop). Nobody to ask: the turn stops, it never spends past the budget silently. A "stop"
 * holds for the rest of the turn, a subagent's requests included.
 */
import type { AgentEvent, CostNextEvent } from '../../conversation/events';
import type { Session } from '../../conversation/session';
import { SessionStates } from '../../conversation/session-states';
import type { Logger } from '../../log';
import { cachePrices } from '../../model/cache-prices';
import { usageCost } from '../../model/session-costs';
import type { Usage, WireMessage, WireTool } from '../../model/types';
import type { Settings } from '../../settings/schema';
import { escapeHidden } from '../../text/hidden-chars';
import { CostForecast, type TokenCounter } from './forecast';
import { SpendLedger } from './ledger';
import { BudgetRaises, passedBudgets, stopMessage } from './rules';
import type { BudgetAsker, BudgetLimits, ExpectedRequest } from './types';

export interface BudgetGuardOptions {
  settings(): Settings;
  tokens: TokenCounter;
  /** The session whose turn and budget a session's requests count for: itself, or a subagent's root parent. */
  rootOf(session: Session): Session;
  /** Who answers a pause; absent: the turn stops. */
  asker?: BudgetAsker;
  /** Usage stored for the session and its subagents before this agent saw it (a resumed session's earlier rounds). */
  storedUsage?(sessionId: string): Usage[];
  logger: Logger;
  now?: () => number;
  /** Where the per-session spending, raises and forecasts are kept (the agent's; default: the guard's own). */
  states?: SessionStates;
}

export class BudgetGuard {
  readonly forecast: CostForecast;
  private readonly ledger: SpendLedger;
  private readonly raises: BudgetRaises;
  /** Per root session: the turn the user stopped at the budget, with its message. */
  private readonly stopped: Map<string, { turn: number; message: string }>;
  /** Models the chat was told a budget cannot hold. */
  private readonly unpricedSaid = new Set<string>();

  constructor(private readonly o: BudgetGuardOptions) {
    const settings = o.settings;
    const states = o.states ?? new SessionStates();
    this.forecast = new CostForecast({ tokens: o.tokens, cacheKnown: () => cachePrices(settings()['model.name'], settings()).known, now: o.now, states });
    this.ledger = new SpendLedger(states);
    this.raises = new BudgetRaises(states);
    this.stopped = states.slice('budget stop');
  }

  /**
   * Before a request of `session`: undefined to send it, or why the turn stops instead. `tell`
   * reports the expected cost (root sessions only: a subagent's rounds are not on the meter) and,
   * once per model, that a budget cannot be held.
   */
  async check(session: Session, req: { wire: readonly WireMessage[]; tools: readonly WireTool[] }, signal: AbortSignal, tell: (e: AgentEvent) => void): Promise<string | undefined> {
    const s = this.o.settings();
    const root = this.o.rootOf(session);
    this.open(root, s);
    const t = this.forecast.expect(session.id, req.wire, req.tools);
    const set = s['agent.budget'];
    const priced = s['model.provider'] === 'vscode-lm' ? undefined : usageCost({ promptTokens: t.promptTokens, cachedTokens: t.cachedTokens, completionTokens: t.outputTokens }, s);
    if (!priced) {
      if ((set.turn !== null || set.session !== null) && !this.unpricedSaid.has(s['model.name'])) {
        this.unpricedSaid.add(s['model.name']);
        tell({ type: 'budget.notice', sessionId: root.id, text: unpricedText(s) });
      }
      return undefined;
    }
    const expected: ExpectedRequest = { promptTokens: t.promptTokens, cachedTokens: t.cachedTokens, outputTokens: t.outputTokens, cost: priced.total };
    let limits = this.raises.limits(root.id, root.turn, set);
    if (!session.isSubagent) tell(this.costEvent(session, root, expected, limits));
    const stop = this.stopped.get(root.id);
    if (stop && stop.turn === root.turn) return stop.message;
    for (;;) {
      const passes = passedBudgets(limits, this.ledger.spent(root.id, root.turn), expected.cost);
      if (!passes.length) return undefined;
      const answer = this.o.asker ? await this.o.asker.ask({ sessionId: root.id, round: session.round, model: s['model.name'], expected, passes }, signal) : { decision: 'stop' as const };
      // Stopped while it asked: the loop ends the turn as cancelled.
      if (signal.aborted) return undefined;
      if (answer.decision === 'continue') {
        this.o.logger.info(`session ${root.id}: the user let one request pass the budget (~${expected.cost})`);
        return undefined;
      }
      if (answer.decision === 'stop') {
        const message = stopMessage(passes, expected);
        this.stopped.set(root.id, { turn: root.turn, message });
        return message;
      }
      this.raises.apply(root.id, root.turn, set, passes, answer);
      limits = this.raises.limits(root.id, root.turn, set);
      if (!session.isSubagent) tell(this.costEvent(session, root, expected, limits));
    }
  }

  /**
   * Every event of the agent: a request's usage (or a compaction's) is spent in its root session's
   * turn, and teaches the forecast.
   */
  observe(e: AgentEvent, sessionOf: (id: string) => Session | undefined): void {
    if (e.type !== 'usage' && !(e.type === 'compaction' && e.usage)) return;
    const session = sessionOf(e.sessionId);
    if (!session) return;
    const usage = e.type === 'usage' ? e.usage : e.usage!;
    if (e.type === 'usage') this.forecast.observe(session.id, usage);
    const root = this.o.rootOf(session);
    const s = this.o.settings();
    // A session first seen at its usage (not through check): its stored usage holds this round already.
    if (!this.ledger.has(root.id) && e.type === 'usage') return this.open(root, s);
    this.open(root, s);
    const cost = usageCost(usage, s);
    if (cost) this.ledger.add(root.id, root.turn, cost.total);
  }

  /** Starts the root session's account with what its stored rounds cost (priced now). */
  private open(root: Session, s: Settings): void {
    if (this.ledger.has(root.id)) return;
    let before = 0;
    try {
      for (const u of this.o.storedUsage?.(root.id) ?? []) before += usageCost(u, s)?.total ?? 0;
    } catch (e) {
      this.o.logger.warn(`could not read what session ${root.id} cost before: ${(e as Error).message}`);
    }
    this.ledger.open(root.id, root.turn, before);
  }

  private costEvent(session: Session, root: Session, expected: ExpectedRequest, limits: BudgetLimits): CostNextEvent {
    const spent = this.ledger.spent(root.id, root.turn);
    return {
      type: 'cost.next',
      sessionId: session.id,
      round: session.round,
      ...expected,
      budget: { turn: { spent: spent.turn, limit: limits.turn }, session: { spent: spent.session, limit: limits.session } },
    };
  }
}

function unpricedText(s: Settings): string {
  const why =
    s['model.provider'] === 'vscode-lm'
      ? 'the editor\'s language models (model.provider "vscode-lm") report no token usage or prices'
      : `Snowpea has no price for the model "${escapeHidden(s['model.name'])}"; set snowpea.model.inputPrice and snowpea.model.outputPrice to hold it to one`;
  return `Your budget (agent.budget) cannot be enforced: ${why}.`;
}
