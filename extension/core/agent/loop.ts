import { performance } from 'node:perf_hooks';
import { statedContextWindow } from '../model/errors';
import { ModelError, type ModelResponse, type WireMessage } from '../model/types';
import type { ToolResult } from '../tools/types';
import { callSummary, resultSummary } from '../tools/card-summary';
import { Emitter } from '../conversation/emitter';
import type { AgentEvent, TurnEndReason } from '../conversation/events';
import type { ContentPart, ImageRef, Message, ToolCall } from '../conversation/messages';
import { closeOrphanCalls } from '../conversation/orphans';
import type { LoopServices } from './loop-services';
import { sessionTitle, type Session } from '../conversation/session';
import { toWireMessages } from '../conversation/wire';
import { typedText } from '../input/compose';
import type { CompactionOutcome, RequestParts } from '../context/compaction/compactor';
import { requestSize } from '../context/compaction/estimate';
import { BudgetStopped } from './budget/types';

/** A request estimated above this share of the window is "near" it: an unexplained 400 for it is taken for an overflow once. */
const NEAR_WINDOW = 0.7;
/** The UI gets at most this much of a tool result with its event; the transcript keeps all. */
const UI_RESULT_CHARS = 64 * 1024;
/** A tool_calls record keeps this much of the arguments; the transcript has them whole. */
const RECORD_ARGS_CHARS = 2048;

export interface TurnResult {
  reason: TurnEndReason;
  rounds: number;
  /** The final assistant text of the turn (what a parent gets back from a child). */
  text: string;
  error?: string;
  /** Milliseconds the loop itself spent per round (its event-loop time), excluding the model call and the tools. */
  overheadMs: number[];
  /** Milliseconds per tool round spent waiting for state.db to report the round durable (the event loop is free meanwhile). */
  commitWaitMs: number[];
}

/** A message the user sent while the turn ran, composed, for the loop to append at the next round boundary. */
export interface DuringTurnMessage {
  /** Its entry in the chat's queue (told back in the `message.delivered` event). */
  id?: string;
  content: string | ContentPart[];
}

/** What the chat shows of a user's message: the words typed (no inlined files, no notes) and the images. */
function shown(content: string | ContentPart[]): { text: string; images?: Array<{ name: string; mime: string; width: number; height: number }> } {
  const images = typeof content === 'string' ? [] : content.flatMap((p) => (p.type === 'image' ? [{ name: p.name, mime: p.mime, width: p.width, height: p.height }] : []));
  return { text: typedText(content), ...(images.length ? { images } : {}) };
}

/**
 * The agent loop: rounds until the model answers without tool calls, the user stops the
 * turn, or agent.maxRounds is reached. Everything that varies (prompt, tools, model, store)
 * comes through LoopServices, so the context-budget features plug in without touching this.
 */
export class AgentLoop {
  private readonly emitter = new Emitter<AgentEvent>({ onListenerError: (e) => this.services.logger.error(`an agent event listener failed: ${e instanceof Error ? e.message : String(e)}`) });
  readonly onEvent = this.emitter.event;

  constructor(private readonly services: LoopServices) {}

  dispose(): void {
    this.emitter.dispose();
  }

  /** Reports an event of the session from outside a turn's own steps (its mode or todo list changed); recorded like any other. */
  notify(session: Session, e: AgentEvent): void {
    this.emit(e, session);
  }

  private emit(e: AgentEvent, session: Session): void {
    this.services.sink?.recordEvent?.(session.id, e);
    this.emitter.fire(e);
  }

  /** Adds a message to the transcript; stored at once, or held in `held` until its round's results are in. */
  private append(session: Session, message: Message, held?: Message[]): void {
    session.messages.push(message);
    if (held) held.push(message);
    else this.services.sink?.appendMessage(session.id, { turn: session.turn, round: session.round, message });
  }

  /** Stores the messages a round held back (its tool calls with all their results). */
  private store(session: Session, held: Message[]): void {
    for (const message of held.splice(0)) this.services.sink?.appendMessage(session.id, { turn: session.turn, round: session.round, message });
  }

  /**
   * `opts.title`: what a new session is titled from (the user's own text); default: the prompt's
   * text. `opts.beforeTools`: what the turn's tool calls wait for (the checkpoint of the files as
   * they were before the turn, taken while the first request is out). `opts.duringTurn`: messages the
   * user sent while the turn ran, asked for at each round boundary; they are appended after the
   * round's tool results, so every earlier byte of the request stays as the provider cached it.
   */
  async runTurn(
    session: Session,
    prompt: string | ContentPart[],
    signal: AbortSignal,
    opts: { maxRounds?: number; title?: string; beforeTools?: Promise<void>; duringTurn?: () => Promise<DuringTurnMessage[]> } = {},
  ): Promise<TurnResult> {
    const { services } = this;
    const emit = (e: AgentEvent) => this.emit(e, session);
    // A call an earlier stop left without a result gets one first (stored), so the request is valid.
    if (closeOrphanCalls(session, services.sink)) services.logger.info(`session ${session.id}: a tool call interrupted earlier was marked as interrupted`);
    session.turn++;
    // What the user typed (and their images), as the stored transcript replays it: not the files, notes or prompt-file text composed after it.
    const { text: typed, images: typedImages } = shown(prompt);
    const promptText = typeof prompt === 'string' ? prompt : [typed, ...(typedImages ?? []).map((i) => `[image ${i.name}]`)].filter(Boolean).join(' ');
    if (session.turn === 1 && session.title === 'New chat') {
      session.title = sessionTitle(opts.title ?? '') || sessionTitle(promptText) || 'New chat';
      services.sink?.updateSession(session.id, { title: session.title });
    }
    emit({ type: 'turn.start', sessionId: session.id, turn: session.turn, prompt: promptText, ...(typed !== promptText ? { text: typed } : {}), ...(typedImages ? { images: typedImages } : {}) });
    this.append(session, { role: 'user', content: prompt });
    services.tools.beginTurn(session);
    // New MCP servers list their tools first, so the Deferred line of this turn's first request names them.
    await services.beforeFirstRequest?.(session, signal).catch((e: Error) => services.logger.warn(`waiting for tools to be listed failed: ${e.message}`));

    const overheadMs: number[] = [];
    const commitWaitMs: number[] = [];
    let rounds = 0;
    let lastText = '';
    /** A round cut at the output limit with tool calls gets one more round (its calls not run); a second cut ends the turn. */
    let continuedAfterCut = false;
    const end = async (reason: TurnEndReason, error?: string): Promise<TurnResult> => {
      await services.sink?.commitRound();
      // The turn's checkpoint is part of it: turn.end (which lets the chat send again) waits for it.
      await opts.beforeTools?.catch(() => undefined);
      emit({ type: 'turn.end', sessionId: session.id, reason, rounds });
      return { reason, rounds, text: lastText, error, overheadMs, commitWaitMs };
    };

    while (true) {
      if (signal.aborted) return end('cancelled');
      const maxRounds = opts.maxRounds ?? services.settings()['agent.maxRounds'];
      if (rounds >= maxRounds) {
        const msg = opts.maxRounds
          ? `Stopped after ${rounds} rounds (the budget for this task).`
          : `Stopped after ${rounds} rounds (agent.maxRounds). Send a message to continue, or raise snowpea.agent.maxRounds.`;
        emit({ type: 'error', sessionId: session.id, message: msg, kind: 'max_rounds' });
        return end('max_rounds', msg);
      }
      // A round boundary: what the user sent meanwhile goes after the last round's results.
      if (rounds > 0 && opts.duringTurn) {
        for (const m of await opts.duringTurn()) {
          this.append(session, { role: 'user', content: m.content, duringTurn: true });
          emit({ type: 'message.delivered', sessionId: session.id, ...(m.id ? { id: m.id } : {}), ...shown(m.content) });
        }
        if (signal.aborted) return end('cancelled');
      }
      rounds++;
      session.round++;
      emit({ type: 'round.start', sessionId: session.id, round: session.round });

      const built = { ms: 0 };
      let response: ModelResponse;
      try {
        response = await this.request(session, signal, built);
      } catch (e) {
        if (e instanceof BudgetStopped && !signal.aborted) {
          emit({ type: 'error', sessionId: session.id, message: e.message, kind: 'budget' });
          return end('budget', e.message);
        }
        const err = e instanceof ModelError ? e : new ModelError('network', (e as Error).message ?? String(e));
        if (err.kind === 'cancelled' || signal.aborted) return end('cancelled');
        emit({ type: 'error', sessionId: session.id, message: err.message, kind: err.kind });
        return end('error', err.message);
      }

      let overhead = built.ms;
      const t1 = performance.now();
      if (response.usage) {
        services.sink?.recordUsage(session.id, session.round, response.usage);
        emit({ type: 'usage', sessionId: session.id, round: session.round, usage: response.usage });
        // Derived from the usage (stored above) and this request: told, not stored.
        const meter = services.meter?.(session, response.usage);
        if (meter) this.emitter.fire(meter);
      }
      // Each call keeps its card title (never sent to the model), so a replay shows the live card's.
      const calls: ToolCall[] = response.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, title: services.tools.title(c), ...(c.extra ? { extra: c.extra } : {}) }));
      // A round with tool calls is stored whole once its results are in: a stop or a crash in
      // between (another session's commit included, e.g. a delegate_task child's) never leaves
      // a stored call without its result.
      const held: Message[] = [];
      const assistant: Message = { role: 'assistant', content: response.text, ...(calls.length ? { toolCalls: calls } : {}), ...(response.reasoning ? { reasoning: response.reasoning } : {}) };
      this.append(session, assistant, calls.length ? held : undefined);
      lastText = response.text;
      overhead += performance.now() - t1;

      const cut = cutReason(response.finishReason, calls.length > 0);
      if (cut) {
        // A cut answer's tool calls never run: the last one's arguments may be incomplete.
        for (const call of calls) this.notRun(session, call, cut.notRun, held);
        this.store(session, held);
        overheadMs.push(overhead);
        if (cut.kind === 'length' && calls.length && !continuedAfterCut) {
          continuedAfterCut = true;
          services.logger.info(`session ${session.id}: round ${session.round} was cut at the output limit with ${calls.length} tool call(s); none ran, the model gets one more round`);
          await services.sink?.commitRound();
          if (signal.aborted) return end('cancelled');
          continue;
        }
        emit({ type: 'error', sessionId: session.id, message: cut.message, kind: cut.kind });
        return end('error', cut.message);
      }

      if (!calls.length) {
        overheadMs.push(overhead);
        return end('done');
      }

      const images: ImageRef[] = [];
      let cancelled = false;
      await opts.beforeTools;
      for (const call of calls) {
        const started = Date.now();
        const result = cancelled ? cancelledResult() : await this.runTool(session, call, signal);
        if (result.error?.code === 'cancelled') cancelled = true;
        const t2 = performance.now();
        images.push(...(result.images ?? []));
        this.append(
          session,
          {
            role: 'tool',
            toolCallId: call.id,
            toolName: call.name,
            ok: result.ok,
            content: result.content,
            ...(result.error ? { errorCode: result.error.code } : {}),
            ...(result.loadedTools?.length ? { loadedTools: result.loadedTools } : {}),
          },
          held,
        );
        this.record(session, call, result, started);
        overhead += performance.now() - t2;
      }
      if (images.length && !cancelled) {
        this.append(session, { role: 'user', attachedBy: 'tools', content: [{ type: 'text', text: imagesCaption(images) }, ...images] }, held);
      }
      this.store(session, held);
      // The commit's own work counts as overhead; waiting for the disk (fsync on the thread
      // pool, event loop free) is reported apart as commitWaitMs.
      const t3 = performance.now();
      const committed = services.sink?.commitRound();
      const t4 = performance.now();
      overheadMs.push(overhead + (t4 - t3));
      await committed;
      commitWaitMs.push(performance.now() - t4);
      if (cancelled || signal.aborted) return end('cancelled');
    }
  }

  /** The request as it goes out now: system prompt, tools, and the pruned view of the transcript. */
  private build(session: Session, built: { ms: number }): RequestParts & { wire: WireMessage[] } {
    const t0 = performance.now();
    const { prompt, tools } = this.services;
    const system = prompt.systemPrompt(session);
    const messages = prompt.requestMessages(session);
    const parts = { system, tools: tools.toolsFor(session), messages, wire: toWireMessages(system, messages, prompt.imageResolver) };
    built.ms += performance.now() - t0;
    return parts;
  }

  /**
   * One round's model call. A request past agent.compactAt of the window compacts first; a
   * provider that still answers context_length gets one harder compaction and a retry. Before each
   * attempt the budget may pause the turn, or stop it (BudgetStopped).
   */
  private async request(session: Session, signal: AbortSignal, built: { ms: number }): Promise<ModelResponse> {
    const { services } = this;
    const compactor = services.compactor;
    let req = this.build(session, built);
    // The request's size is measured once: for the estimate here and to learn from the usage below.
    let size = compactor ? requestSize(req.wire, req.tools) : undefined;
    if (compactor && size && compactor.estimator.estimate(session.id, size) > compactor.limit()) {
      if (await this.compactNow(session, req, { trigger: 'auto', signal })) {
        req = this.build(session, built);
        size = requestSize(req.wire, req.tools);
      }
    }
    for (let attempt = 0; ; attempt++) {
      // The budget sees the request as it goes out (compacted, or again after an overflow).
      const stop = await services.beforeRequest?.(session, req, signal, (e) => this.emitter.fire(e));
      if (stop !== undefined) throw new BudgetStopped(stop);
      try {
        const response = await services.client().complete(
          { messages: req.wire, tools: req.tools, cacheKey: session.parentId ?? session.id },
          {
            onText: (text) => this.emit({ type: 'text.delta', sessionId: session.id, text }, session),
            onReasoning: (text) => this.emit({ type: 'reasoning.delta', sessionId: session.id, text }, session),
            onRetry: (r) => this.emit({ type: 'retry', sessionId: session.id, ...r }, session),
          },
          signal,
        );
        if (compactor && size && response.usage && !response.usage.estimated) compactor.estimator.observe(session.id, size, response.usage.promptTokens);
        return response;
      } catch (e) {
        if (!(e instanceof ModelError) || !compactor?.enabled() || signal.aborted) throw e;
        // A 400 in words no pattern knows, for a request near the window, is taken for an overflow once.
        const nearWindow = size !== undefined && compactor.estimator.estimate(session.id, size) > compactor.window() * NEAR_WINDOW;
        const overflow = e.kind === 'context_length' || (e.kind === 'bad_request' && e.status === 400 && nearWindow && attempt === 0);
        if (!overflow) throw e;
        if (e.kind === 'context_length') compactor.learnWindow(statedContextWindow(e.message));
        else services.logger.warn(`session ${session.id}: a 400 for a request of ~${compactor.estimator.estimate(session.id, size!)} tokens (window ${compactor.window()}) is taken for a context overflow: ${e.message}`);
        if (attempt > 0) throw new ModelError('context_length', `${e.message} Compacting the conversation did not make it fit: start a new chat, or send less at once (your message is kept in this session).`);
        if (!(await this.compactNow(session, req, { trigger: 'overflow', harder: true, signal }))) throw e;
        req = this.build(session, built);
        size = requestSize(req.wire, req.tools);
      }
    }
  }

  /** Compacts the session and reports it; false when there was nothing to compact. */
  private async compactNow(session: Session, req: RequestParts, o: { trigger: 'auto' | 'manual' | 'overflow'; focus?: string; harder?: boolean; signal: AbortSignal }): Promise<CompactionOutcome | undefined> {
    const outcome = await this.services.compactor!.compact(session, req, o);
    if (!outcome) return undefined;
    const { record, summary, usage, failure } = outcome;
    this.emit(
      {
        type: 'compaction',
        sessionId: session.id,
        trigger: record.trigger,
        tokensBefore: record.tokensBefore,
        tokensAfter: record.tokensAfter,
        rounds: record.rounds,
        summary,
        model: record.model,
        ...(record.focus ? { focus: record.focus } : {}),
        ...(failure ? { failure } : {}),
        ...(usage ? { usage } : {}),
      },
      session,
    );
    return outcome;
  }

  /**
   * Compacts a session between turns (/compact, `snowpea sessions compact`); undefined when there
   * is nothing to compact (no model round since the last compaction).
   */
  async compact(session: Session, focus: string | undefined, signal: AbortSignal): Promise<CompactionOutcome | undefined> {
    if (!this.services.compactor) return undefined;
    return this.compactNow(session, this.build(session, { ms: 0 }), { trigger: 'manual', focus, signal });
  }

  /** The call's row in the tool_calls table: outcome, timing, and the start of its arguments. */
  private record(session: Session, call: ToolCall, result: ToolResult, started: number): void {
    const args = call.arguments.length > RECORD_ARGS_CHARS ? `${call.arguments.slice(0, RECORD_ARGS_CHARS)}… [${call.arguments.length} chars; the transcript holds them whole]` : call.arguments;
    this.services.sink?.recordToolCall?.(session.id, {
      callId: call.id,
      tool: call.name,
      args,
      ok: result.ok,
      errorCode: result.error?.code ?? null,
      turn: session.turn,
      round: session.round,
      started,
      ended: Date.now(),
    });
  }

  /** A call that is not run (its answer was cut): its card, its stored result saying why. */
  private notRun(session: Session, call: ToolCall, why: string, held: Message[]): void {
    const started = Date.now();
    const title = call.title ?? call.name;
    const result: ToolResult = { ok: false, content: `error (not_run): ${why}`, error: { code: 'not_run', message: why } };
    this.emit({ type: 'tool.call', sessionId: session.id, callId: call.id, tool: call.name, args: call.arguments, title, summary: callSummary({ ...call, title }) }, session);
    this.emit({ type: 'tool.result', sessionId: session.id, callId: call.id, tool: call.name, ok: false, summary: resultSummary(result.content), errorCode: 'not_run', result: result.content }, session);
    this.append(session, { role: 'tool', toolCallId: call.id, toolName: call.name, ok: false, content: result.content, errorCode: 'not_run' }, held);
    this.record(session, call, result, started);
  }

  private async runTool(session: Session, call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const emit = (e: AgentEvent) => this.emit(e, session);
    const title = call.title ?? call.name;
    emit({ type: 'tool.call', sessionId: session.id, callId: call.id, tool: call.name, args: call.arguments, title, summary: callSummary({ ...call, title }) });
    if (signal.aborted) {
      const r = cancelledResult();
      emit({ type: 'tool.result', sessionId: session.id, callId: call.id, tool: call.name, ok: false, summary: resultSummary(r.content), errorCode: 'cancelled' });
      return r;
    }
    const ctx = this.services.toolContext(session, signal, (chunk) => emit({ type: 'tool.output', sessionId: session.id, callId: call.id, chunk }));
    let result: ToolResult;
    try {
      result = await this.services.tools.execute(session, call, ctx, emit);
    } catch (e) {
      result = { ok: false, content: `error (failed): ${(e as Error).message}`, error: { code: 'failed', message: (e as Error).message } };
    }
    if (signal.aborted && result.ok === false && result.error?.code !== 'cancelled') result = cancelledResult();
    emit({
      type: 'tool.result',
      sessionId: session.id,
      callId: call.id,
      tool: call.name,
      ok: result.ok,
      summary: resultSummary(result.content),
      ...(result.error ? { errorCode: result.error.code } : {}),
      result: result.content.length > UI_RESULT_CHARS ? `${result.content.slice(0, UI_RESULT_CHARS)}\n[… ${result.content.length - UI_RESULT_CHARS} more chars]` : result.content,
    });
    return result;
  }
}

/**
 * What a finish reason other than stop/tool_calls means for the round: `length` (cut at the output
 * limit) and `content_filter` (stopped by the provider's filter) end an answer early; null for a
 * complete one.
 */
export function cutReason(finishReason: string | null, hasCalls: boolean): { kind: 'length' | 'content_filter'; message: string; notRun: string } | null {
  const calls = hasCalls ? '; its tool calls were not run' : '';
  if (finishReason === 'length') {
    return {
      kind: 'length',
      message: `The answer was cut off at the model's output limit (finish_reason "length")${calls}. Send "continue" to have it go on, or raise snowpea.model.maxOutputTokens.`,
      notRun: "not run: the model's answer was cut off at its output limit (finish_reason length) before this call was known to be complete",
    };
  }
  if (finishReason === 'content_filter') {
    return {
      kind: 'content_filter',
      message: `The provider's content filter stopped the answer (finish_reason "content_filter"); what arrived before it is kept${calls}.`,
      notRun: "not run: the provider's content filter stopped the answer (finish_reason content_filter)",
    };
  }
  return null;
}

function cancelledResult(): ToolResult {
  const message = 'the user stopped the turn before this call finished';
  return { ok: false, content: `error (cancelled): ${message}`, error: { code: 'cancelled', message } };
}

export function imagesCaption(images: ImageRef[]): string {
  return images.length === 1 ? `image attached: ${images[0].name}` : `${images.length} image(s) attached`;
}
