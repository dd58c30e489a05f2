import type { Logger } from '../../log';
import type { CompactionRecord, Message } from '../../conversation/messages';
import type { Session } from '../../conversation/session';
import { toWireMessages, type ImageResolver } from '../../conversation/wire';
import { modelCapabilities } from '../../model/capabilities';
import { ModelError, type ModelClient, type Usage, type WireMessage, type WireTool } from '../../model/types';
import type { Settings } from '../../settings/schema';
import { chooseCut } from './cut';
import { requestSize, TokenEstimator } from './estimate';
import { omittedNote, summaryInstruction, summaryMessage } from './instruction';
import { shrinkForSummary } from './shrink';
import { viewCompaction, requestView, viewEntries } from './view';
import type { CutChoice } from './cut';
import { SessionStates } from '../../conversation/session-states';

/** The request view as it would be with a compaction of `content` at `choice` appended (nothing is stored). */
function requestViewWith(messages: readonly Message[], content: string, choice: CutChoice): Message[] {
  const record: CompactionRecord = { cut: choice.cut, ...(choice.pinned !== undefined ? { pinned: choice.pinned } : {}), trigger: 'manual', tokensBefore: 0, tokensAfter: 0, model: '', rounds: choice.rounds };
  return requestView([...messages, { role: 'user', attachedBy: 'compaction', content, compaction: record }]);
}

/** The request as the loop would send it now: its system prompt, tools, and the pruned view of the transcript. */
export interface RequestParts {
  system: string;
  tools: WireTool[];
  messages: Message[];
}

export interface CompactionOutcome {
  record: CompactionRecord;
  /** The summary the model wrote ('' for the fallback). */
  summary: string;
  /** What the summary request cost (absent for the fallback or an endpoint that reports none). */
  usage?: Usage;
  /** Why the summary failed, for the fallback. */
  failure?: string;
}

export interface CompactorDeps {
  settings(): Settings;
  client(): ModelClient;
  logger: Logger;
  /** Where the compaction message is stored (the transcript sink's two calls). */
  sink?: { appendMessage(sessionId: string, entry: { turn: number; round: number; message: Message }): unknown; commitRound(): void | Promise<void> };
  imageResolver?: ImageResolver;
  /** Where the per-session token ratios are kept (the agent's; default: its own). */
  states?: SessionStates;
}

/** Share of the limit the rounds kept whole may take, so a compaction frees enough to matter. */
const KEPT_SHARE = 0.5;
const OMITTED = /^\[\d+ earlier rounds omitted; /;

/**
 * Compaction: when a request would pass `agent.compactAt` of the usable window, the model writes a
 * summary of the conversation (in a request that repeats the session's own, so the cached prefix
 * is reused) and later requests carry it in place of the rounds before the cut. The summary is
 * appended to the transcript as a message; nothing stored is changed.
 */
export class Compactor {
  readonly estimator: TokenEstimator;

  constructor(private readonly deps: CompactorDeps) {
    this.estimator = new TokenEstimator((deps.states ?? new SessionStates()).slice('token ratios'));
  }

  /** A window a provider stated in a context-length error, for the model it was stated for. */
  private learned: { model: string; tokens: number } | undefined;

  /** The model's context window in tokens: model.contextWindow, else the built-in table; never more than a window the provider stated. */
  window(): number {
    const s = this.deps.settings();
    const believed = modelCapabilities(s['model.name'], s).contextWindow;
    return this.learned && this.learned.model === s['model.name'] ? Math.min(believed, this.learned.tokens) : believed;
  }

  /** The provider said the model's window is `tokens` (a context-length error): later requests compact against it. */
  learnWindow(tokens: number | undefined): void {
    if (!tokens) return;
    const model = this.deps.settings()['model.name'];
    if (this.learned?.model === model && this.learned.tokens <= tokens) return;
    const before = this.window();
    if (tokens >= before) return;
    this.learned = { model, tokens };
    this.deps.logger.info(`the provider says model "${model}" takes ${tokens} tokens (Snowpea believed ${before}); compacting against that from now on (model.contextWindow sets it for good)`);
  }

  /** Tokens the model may answer with, kept free in the window. */
  answerBudget(): number {
    const max = this.deps.settings()['model.maxOutputTokens'];
    return Math.min(max ?? 4_096, Math.floor(this.window() / 4));
  }

  /** Whether compaction is on (agent.compactAt is not null). */
  enabled(): boolean {
    return this.deps.settings()['agent.compactAt'] !== null;
  }

  /** Above this many estimated input tokens a request compacts first (Infinity when compaction is off). */
  limit(): number {
    const at = this.deps.settings()['agent.compactAt'];
    return at === null ? Infinity : Math.floor(at * (this.window() - this.answerBudget()));
  }

  estimate(sessionId: string, wire: readonly WireMessage[], tools: readonly WireTool[]): number {
    return this.estimator.estimate(sessionId, requestSize(wire, tools));
  }

  private wire(parts: { system: string }, messages: readonly Message[]): WireMessage[] {
    return toWireMessages(parts.system, messages, this.deps.imageResolver);
  }

  /**
   * Compacts the session now; undefined when there is nothing before the newest rounds to
   * summarize. A failed summary falls back to dropping the rounds before the cut with a note.
   * Throws ModelError('cancelled') when `signal` aborts; nothing is stored then.
   */
  async compact(session: Session, parts: RequestParts, o: { trigger: 'auto' | 'manual' | 'overflow'; focus?: string; harder?: boolean; signal: AbortSignal }): Promise<CompactionOutcome | undefined> {
    const s = this.deps.settings();
    const tokensBefore = this.estimate(session.id, this.wire(parts, parts.messages), parts.tools);
    const keep = s['agent.compactKeepRounds'] ?? s['agent.keepToolRounds'];
    const base = this.estimate(session.id, this.wire(parts, []), parts.tools);
    const view = viewEntries(session.messages);
    const keptTokens = (cut: number) => this.estimator.estimate(session.id, { chars: JSON.stringify(view.filter((e) => e.index >= cut).map((e) => e.message)).length, images: 0 });
    const choice = chooseCut(session.messages, o.harder ? Math.min(keep, 2) : keep, (cut) => base + keptTokens(cut) <= this.limit() * KEPT_SHARE);
    if (!choice) return undefined;

    const client = this.deps.client();
    let summary = '';
    let usage: Usage | undefined;
    let failure: string | undefined;
    try {
      ({ summary, usage } = await this.summarize(session, parts, client, o));
    } catch (e) {
      if (o.signal.aborted || (e instanceof ModelError && e.kind === 'cancelled')) throw new ModelError('cancelled', 'compaction cancelled');
      failure = (e as Error).message;
      this.deps.logger.warn(`session ${session.id}: the compaction summary failed (${failure}); dropping the oldest rounds instead`);
    }
    if (!failure) {
      // A summary that leaves the request over the limit, or far past its own cap (an endpoint that
      // ignored max_tokens), would make every later round compact again: the fallback frees room instead.
      const after = this.estimate(session.id, this.wire(parts, [...requestViewWith(session.messages, summaryMessage(summary, choice.rounds), choice)]), parts.tools);
      const summaryTokens = this.estimator.estimate(session.id, { chars: summary.length, images: 0 });
      if (after > this.limit() || (after >= tokensBefore && summaryTokens > 2 * this.summaryCap())) {
        failure = `the summary would leave the request at ${after} tokens (before: ${tokensBefore}, limit: ${Number.isFinite(this.limit()) ? this.limit() : 'none'})`;
        this.deps.logger.warn(`session ${session.id}: ${failure}; dropping the oldest rounds instead`);
        summary = '';
      }
    }
    const previous = viewCompaction(view);
    // A fallback keeps what an earlier summary said (not earlier omission notes).
    const earlier = typeof previous?.content === 'string' ? previous.content.split('\n\n').filter((p) => !OMITTED.test(p)).join('\n\n') : '';
    const content = failure ? [earlier, omittedNote(choice.rounds)].filter(Boolean).join('\n\n') : summaryMessage(summary, choice.rounds);
    const record: CompactionRecord = {
      cut: choice.cut,
      ...(choice.pinned !== undefined ? { pinned: choice.pinned } : {}),
      trigger: failure ? 'fallback' : o.trigger,
      tokensBefore,
      tokensAfter: 0,
      model: client.model,
      rounds: choice.rounds,
      ...(o.focus?.trim() ? { focus: o.focus.trim() } : {}),
    };
    const message: Message = { role: 'user', attachedBy: 'compaction', content, compaction: record };
    session.messages.push(message);
    record.tokensAfter = this.estimate(session.id, this.wire(parts, requestView(session.messages)), parts.tools);
    this.deps.sink?.appendMessage(session.id, { turn: session.turn, round: session.round, message });
    await this.deps.sink?.commitRound();
    return { record, summary, ...(usage ? { usage } : {}), ...(failure ? { failure } : {}) };
  }

  /** Asks the model for the summary: the session's request plus the instruction, cut down when it would not fit. */
  private async summarize(session: Session, parts: RequestParts, client: ModelClient, o: { focus?: string; harder?: boolean; signal: AbortSignal }): Promise<{ summary: string; usage?: Usage }> {
    const instruction: WireMessage = { role: 'user', content: summaryInstruction(o.focus) };
    const room = this.window() - this.answerBudget();
    let messages = [...this.wire(parts, parts.messages), instruction];
    if (o.harder || this.estimate(session.id, messages, parts.tools) > room) {
      const shrunk = shrinkForSummary(parts.messages, (m) => this.estimate(session.id, [...this.wire(parts, m), instruction], parts.tools) <= room * 0.9);
      messages = [...this.wire(parts, shrunk), instruction];
    }
    const r = await client.complete({ messages, tools: parts.tools, cacheKey: session.parentId ?? session.id, maxOutputTokens: this.summaryCap() }, {}, o.signal);
    let summary = r.text.trim();
    if (!summary) throw new Error(r.toolCalls.length ? 'the model called a tool instead of writing the summary' : 'the model answered with no summary');
    if (r.finishReason === 'length') summary += '\n\n[This summary was cut off at its length limit.]';
    return { summary, ...(r.usage ? { usage: r.usage } : {}) };
  }

  /** Most tokens a summary may take: a quarter of the compaction limit, within the answer budget. */
  summaryCap(): number {
    const limit = this.limit();
    const quarter = Number.isFinite(limit) ? Math.floor(limit / 4) : this.answerBudget();
    return Math.max(256, Math.min(quarter, this.answerBudget()));
  }
}
