import type { MeterEvent } from '../conversation/events';
import type { Session } from '../conversation/session';
import { SessionStates } from '../conversation/session-states';
import type { Compactor } from '../context/compaction/compactor';
import type { SessionPromptBuilder } from '../context/prompt-builder';
import { modelCapabilities } from '../model/capabilities';
import { SessionCosts } from '../model/session-costs';
import type { ModelClient, Usage } from '../model/types';
import type { Settings } from '../settings/schema';
import type { SessionToolRuntime } from '../tools/runtime';

export interface MeterSources {
  settings: () => Settings;
  prompt: Pick<SessionPromptBuilder, 'lastPruneStats'>;
  runtime: Pick<SessionToolRuntime, 'deferredSavings'>;
  compactor: Pick<Compactor, 'limit'>;
  /** The client the round went through: what its endpoint refused (optional request parts it now goes without). */
  client?: () => Pick<ModelClient, 'dropped'>;
  /** Where the per-session cost totals are kept (the agent's; default: the meter's own). */
  states?: SessionStates;
}

function dropped(client: Pick<ModelClient, 'dropped'> | undefined): { dropped?: string[] } {
  const list = client?.dropped?.() ?? [];
  return list.length ? { dropped: list } : {};
}

/**
 * The context meter of each round the provider reported usage for: tokens in, cached and out, the
 * window and the fill at which a request compacts first, what pruning and deferral left out of the
 * request just sent, and the round's and the session's estimated cost (totals over the rounds this
 * meter has measured: a window's, a CLI run's).
 */
export class RoundMeter {
  private readonly costs: SessionCosts;

  constructor(private readonly sources: MeterSources) {
    this.costs = new SessionCosts((sources.states ?? new SessionStates()).slice('session costs'));
  }

  measure(session: Session, usage: Usage): MeterEvent {
    const { settings, prompt, runtime, compactor } = this.sources;
    const s = settings();
    const pruned = prompt.lastPruneStats(session.id);
    const deferred = runtime.deferredSavings(session);
    const compactAt = compactor.limit();
    return {
      type: 'meter',
      sessionId: session.id,
      round: session.round,
      promptTokens: usage.promptTokens,
      cachedTokens: usage.cachedTokens,
      completionTokens: usage.completionTokens,
      ...(usage.reasoningTokens ? { reasoningTokens: usage.reasoningTokens } : {}),
      ...dropped(this.sources.client?.()),
      contextWindow: modelCapabilities(s['model.name'], s).contextWindow,
      // agent.compactAt null: never compacts (an infinite limit), so no threshold to show.
      ...(Number.isFinite(compactAt) ? { compactAtTokens: compactAt } : {}),
      ...(pruned ? { prunedChars: pruned.prunedChars, prunedResults: pruned.prunedResults, prunedCalls: pruned.prunedCalls } : {}),
      deferredTools: deferred.tools,
      deferredTokens: deferred.tokens,
      ...this.costs.add(session.id, usage, s, Math.ceil((pruned?.prunedChars ?? 0) / 4) + deferred.tokens),
    };
  }
}
