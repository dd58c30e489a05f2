import type { Agent } from '../core/agent/agent';
import type { AgentEvent } from '../core/conversation/events';
import type { Session } from '../core/conversation/session';
import { modelCapabilities } from '../core/model/capabilities';
import type { SessionCosts } from '../core/model/session-costs';
import type { Settings } from '../core/settings/schema';
import type { HostMessage } from '../protocol';

type UsageEvent = Extract<AgentEvent, { type: 'usage' }>;

/**
 * The context meter for a round the provider reported usage for: tokens in, cached and out, the
 * window and the fill at which a request compacts first, what pruning and deferral left out, and
 * the round's and the session's estimated cost (`costs` adds the round).
 */
export function meterMessage(agent: Agent, session: Session, e: UsageEvent, settings: Settings, costs: SessionCosts): HostMessage {
  const pruned = agent.prompt.lastPruneStats(e.sessionId);
  const deferred = agent.runtime.deferredSavings(session);
  const compactAt = agent.compactor.limit();
  return {
    type: 'meter',
    sessionId: e.sessionId,
    round: e.round,
    promptTokens: e.usage.promptTokens,
    cachedTokens: e.usage.cachedTokens,
    completionTokens: e.usage.completionTokens,
    contextWindow: modelCapabilities(settings['model.name'], settings).contextWindow,
    // agent.compactAt null: never compacts (an infinite limit), so no threshold to show.
    ...(Number.isFinite(compactAt) ? { compactAtTokens: compactAt } : {}),
    ...(pruned ? { prunedChars: pruned.prunedChars, prunedResults: pruned.prunedResults, prunedCalls: pruned.prunedCalls } : {}),
    deferredTools: deferred.tools,
    deferredTokens: deferred.tokens,
    ...costs.add(e.sessionId, e.usage, settings, Math.ceil((pruned?.prunedChars ?? 0) / 4) + deferred.tokens),
  };
}
