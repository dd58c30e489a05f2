import { PruneCache, type PrunedCall } from './prune-cache';
import type { Settings } from '../settings/schema';
import { sessionRole } from '../tools/roles';
import type { Message } from '../conversation/messages';
import type { Session } from '../conversation/session';
import { SessionStates } from '../conversation/session-states';
import { budgetLine, composePrompt, environmentLine, modeLine, PERSONA, type PromptPart } from './system-prompt';
import type { ImageResolver } from '../conversation/wire';
import { cachePrices } from '../model/cache-prices';
import { callInView, requestView } from './compaction/view';
import type { PruneRule } from './prune-rule';

/** The prompt seam: the system prompt (byte-stable across rounds) and the messages as sent (pruned copy). */
export interface PromptBuilder {
  systemPrompt(session: Session): string;
  /** The transcript as the provider should see it; must not modify `session.messages`. */
  requestMessages(session: Session): Message[];
  imageResolver?: ImageResolver;
}

/** What pruning left out of a session's latest request (the context meter, and the tool cards it turned into stubs). */
export interface PruneStats {
  prunedChars: number;
  prunedResults: number;
  /** The tool calls whose results that request carried as their pruning stubs, with the stub. */
  prunedCalls: PrunedCall[];
}

export interface PromptSources {
  settings(): Settings;
  /** The grouped deferred-tools line, or undefined. */
  deferredLine(): string | undefined;
  /** Extra named parts (skills index, project context, memory), computed once per turn. */
  extraParts?(session: Session): PromptPart[];
  imageResolver?: ImageResolver;
  /** Where the per-session caches are kept (the agent's; default: the builder's own). */
  states?: SessionStates;
  /** Each tool's prune trait, from the registry (default: the built-in tools'). One function for the builder's life. */
  pruneRule?: PruneRule;
}

/**
 * Builds the system prompt from named parts (cached per session, mode, role and turn so rounds
 * inside a turn reuse the same string) and the pruned copy of the transcript for the request.
 */
export class SessionPromptBuilder implements PromptBuilder {
  private readonly cache: Map<string, { key: string; text: string }>;
  private readonly sessions: Map<string, Session>;
  private readonly stats: Map<string, PruneStats>;
  /** The pruned copy of each session's transcript, brought up to date each round rather than rebuilt. */
  private readonly pruned: PruneCache;
  readonly imageResolver?: ImageResolver;

  constructor(private readonly sources: PromptSources) {
    const states = sources.states ?? new SessionStates();
    this.cache = states.slice('system prompt');
    this.sessions = states.slice('prompt sessions');
    this.stats = states.slice('prune stats');
    this.pruned = new PruneCache(states);
    this.imageResolver = sources.imageResolver;
  }

  systemPrompt(session: Session): string {
    const key = `${session.mode}|${session.role}|${session.turn}`;
    const hit = this.cache.get(session.id);
    if (hit && hit.key === key) return hit.text;
    const role = sessionRole(session);
    const text = composePrompt([
      // Stable, shared parts first; what differs between sibling subagents (role, budget) last,
      // so they share the longest possible prompt-cache prefix. The task is the user message.
      { name: 'persona', text: PERSONA },
      { name: 'environment', text: environmentLine(session.workspaceRoot, process.platform) },
      { name: 'mode', text: modeLine(session.mode) },
      ...(this.sources.extraParts?.(session) ?? []),
      { name: 'deferred', text: this.sources.deferredLine() },
      { name: 'role', text: role.instructions },
      { name: 'budget', text: budgetLine(session.budgetRounds) },
    ]);
    // Keep the previous string when nothing changed, so the request bytes stay identical.
    const final = hit && hit.text === text ? hit.text : text;
    this.cache.set(session.id, { key, text: final });
    return final;
  }

  requestMessages(session: Session): Message[] {
    this.sessions.set(session.id, session);
    const s = this.sources.settings();
    const r = this.pruned.prune(session.id, requestView(session.messages), {
      enabled: s['agent.pruneToolOutputs'],
      keepToolRounds: s['agent.keepToolRounds'],
      protectRecentViews: s['skills.protectRecentViews'],
      strategy: s['agent.pruneStrategy'],
      prices: cachePrices(s['model.name'], s),
      ...(this.sources.pruneRule ? { pruneRule: this.sources.pruneRule } : {}),
    });
    this.stats.set(session.id, { prunedChars: r.savedChars, prunedResults: r.prunedResults, prunedCalls: r.prunedCalls });
    return r.messages;
  }

  /** What pruning left out of the session's latest request (the context meter). */
  lastPruneStats(sessionId: string): PruneStats | undefined {
    return this.stats.get(sessionId);
  }

  /**
   * Whether the result of this call will still be sent in full in the next request: the
   * repeat guard must not answer "unchanged since your earlier read" when that read is pruned.
   */
  isResultVisible(sessionId: string, callId: string): boolean {
    const s = this.sources.settings();
    const session = this.sessions.get(sessionId);
    if (!session) return true;
    // A read that a compaction summarized (or a rewind took back) is gone from the request, whatever pruning says.
    if (!callInView(session.messages, callId)) return false;
    if (!s['agent.pruneToolOutputs']) return true;
    // The rolling rule's age (keepToolRounds): cache-aware pruning's cutoff never passes it, so a
    // result this calls hidden may still be sent (the guard then lets a read through: safe), never the reverse.
    let age = 0;
    for (let i = session.messages.length - 1; i >= 0; i--) {
      const m = session.messages[i];
      if (m.role === 'assistant' && m.toolCalls?.length) {
        age++;
        if (m.toolCalls.some((c) => c.id === callId)) return age <= s['agent.keepToolRounds'];
      }
    }
    return false;
  }
}
