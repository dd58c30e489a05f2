/**
 * ModelClient for any OpenAI-compatible endpoint, on the `openai` SDK: streaming Chat
 * Completions with usage, our own retries (so each one can be reported), a first-byte and
 * idle timeout, and failures turned into ModelErrors that name endpoint and model.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { baseUrlProblem, classifyFailure, displayEndpoint, IncompleteStreamError, type AttemptState, type ErrorContext } from './errors';
import { readErrorBody } from './error-body';
import { bodyShape, notAStreamError, readCapped, responseFromCompletion } from './non-stream';
import { defaultRetryTiming, retryDelayMs, sleep, type RetryPolicy } from './retry';
import { applyHints, hintsFor, OPTIONAL_PARAMS, refusedParams, type CacheHintMode, type OptionalParam } from './cache-hints';
import { listParams, refusedAt } from './optional-params';
import { StreamAssembler } from './stream-assembler';
import type { Effort } from './model-choice';
import { ModelError, type ModelClient, type ModelRequest, type ModelResponse, type StreamHandlers, type WireMessage } from './types';

export type ModelLogLevel = 'debug' | 'info' | 'warn' | 'error';
export type ModelLog = (level: ModelLogLevel, message: string) => void;

export interface OpenAIClientOptions {
  /** e.g. https://api.openai.com/v1 or http://localhost:11434/v1 */
  baseUrl: string;
  /** May be empty for local servers that need none. Never logged or shown. */
  apiKey: string;
  model: string;
  /** Most tokens per answer; null/undefined leaves it to the endpoint. */
  maxOutputTokens?: number | null;
  /** Seconds to wait for the first byte, and between stream chunks. */
  requestTimeoutS: number;
  /** Retries on 408/409/429/5xx, timeouts and network errors, before anything streamed. */
  maxRetries: number;
  log?: ModelLog;
  /** First backoff delay in ms (default 500); doubles per retry. */
  retryBaseDelayMs?: number;
  /** Bound on any retry delay, Retry-After included (default 30,000 ms). */
  retryMaxDelayMs?: number;
  /** Extra HTTP headers for every request (e.g. OpenRouter's HTTP-Referer). */
  headers?: Record<string, string>;
  /** model.cacheHints: prompt_cache_key where it is known to be taken ('on': everywhere), and cache_control breakpoints for Claude models (default 'auto'). */
  cacheHints?: CacheHintMode;
  /** model.reasoningEffort (or the session's pick): sent as reasoning_effort; null/undefined sends none (the model's default). */
  reasoningEffort?: Effort | null;
}

/** The attempt a fetch belongs to, so an error answer's body (any shape) reaches the classifier. */
const attemptStore = new AsyncLocalStorage<AttemptState>();

/** fetch, keeping a copy of the first 64 KB of every error answer's body for the attempt that asked. */
const capturingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const res = await fetch(input, init);
  const state = attemptStore.getStore();
  if (!res.ok && state) state.errorBody = await readCapped(res.clone()).catch(() => undefined);
  return res;
};

/**
 * The request's messages as the endpoint takes them: an assistant's reasoning goes back as
 * reasoning_content (DeepSeek and servers like it) or reasoning_details (OpenRouter) for the turns
 * that called tools, where those providers require it, and nowhere else; a tool call's provider
 * fields (Gemini's thought signature) go back verbatim.
 */
export function endpointMessages(messages: readonly WireMessage[], omit: ReadonlySet<OptionalParam>): { messages: ChatCompletionMessageParam[]; sent: OptionalParam[] } {
  const sent = new Set<OptionalParam>();
  const out = messages.map((m): ChatCompletionMessageParam => {
    if (m.role !== 'assistant' || (!m.reasoning && !m.tool_calls?.some((c) => c.extra))) return m as ChatCompletionMessageParam;
    const { reasoning, tool_calls, ...rest } = m;
    const msg: Record<string, unknown> = { ...rest };
    if (tool_calls) msg.tool_calls = tool_calls.map(({ extra, ...c }) => (extra ? { ...c, ...extra } : c));
    if (reasoning?.toolTurn) {
      if (reasoning.source === 'reasoning_content' && !omit.has('reasoning_content')) {
        msg.reasoning_content = reasoning.text;
        sent.add('reasoning_content');
      }
      if (reasoning.details?.length && !omit.has('reasoning_details')) {
        msg.reasoning_details = reasoning.details;
        sent.add('reasoning_details');
      }
    }
    return msg as unknown as ChatCompletionMessageParam;
  });
  return { messages: out, sent: [...sent] };
}

/** A handler (onText) threw: its error goes to the caller untouched, never retried. */
class HandlerError extends Error {
  constructor(readonly original: unknown) {
    super('stream handler failed');
  }
}

/** The SDK's logger: its errors and warnings (an unreadable chunk, quoted whole) become short debug lines. */
function sdkLogger(log: ModelLog) {
  const line = (args: unknown[]) => {
    const text = args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    log('debug', `openai sdk: ${text.length > 300 ? `${text.slice(0, 299)}…` : text}`);
  };
  return { error: (...a: unknown[]) => line(a), warn: (...a: unknown[]) => line(a), info: () => {}, debug: () => {} };
}

/** OpenAI's reasoning models take max_completion_tokens; most other servers know max_tokens. */
export function outputLimitParam(model: string, max: number): { max_tokens: number } | { max_completion_tokens: number } {
  const bare = model.toLowerCase().replace(/^.*\//, '');
  return /^(o\d|gpt-5)/.test(bare) ? { max_completion_tokens: max } : { max_tokens: max };
}

/** The answer limit of one request: the request's own cap, within the configured one. */
export function answerCap(configured: number | null | undefined, requested: number | undefined): number | undefined {
  if (!requested) return configured ?? undefined;
  return configured ? Math.min(configured, requested) : requested;
}

export function createOpenAIClient(opts: OpenAIClientOptions): ModelClient {
  const endpoint = displayEndpoint(opts.baseUrl);
  const timeoutMs = Math.max(1, Math.round(opts.requestTimeoutS * 1000));
  const policy: RetryPolicy = {
    maxRetries: Math.max(0, Math.floor(opts.maxRetries)),
    baseDelayMs: opts.retryBaseDelayMs ?? defaultRetryTiming.baseDelayMs,
    maxDelayMs: opts.retryMaxDelayMs ?? defaultRetryTiming.maxDelayMs,
  };
  const ctx: ErrorContext = { endpoint, model: opts.model, apiKey: opts.apiKey, timeoutS: opts.requestTimeoutS };
  const log: ModelLog = opts.log ?? (() => {});
  const sdk = new OpenAI({
    baseURL: opts.baseUrl,
    apiKey: opts.apiKey || 'none',
    // Never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment for third-party endpoints.
    organization: null,
    project: null,
    maxRetries: 0,
    // A backstop only: our own timer (first byte and idle) fires first.
    timeout: timeoutMs + 1000,
    defaultHeaders: opts.headers,
    // The SDK would print unreadable chunks (whole) to stderr: its warnings go to our debug log.
    logLevel: 'warn',
    logger: sdkLogger(log),
    fetch: capturingFetch,
  });
  const at = `The model endpoint ${endpoint} (model "${opts.model}")`;
  const urlProblem = baseUrlProblem(opts.baseUrl);

  /** The request body without the optional parts in `omit`, and which optional parts it carries. */
  function params(req: ModelRequest, omit: ReadonlySet<OptionalParam>): { body: ChatCompletionCreateParamsStreaming; sent: OptionalParam[] } {
    const wire = endpointMessages(req.messages, omit);
    const hints = hintsFor(opts.model, opts.cacheHints ?? 'auto', req.cacheKey, omit, opts.baseUrl);
    const body: ChatCompletionCreateParamsStreaming = {
      model: opts.model,
      messages: wire.messages,
      // The caller's array itself, so unchanged rounds serialize to identical bytes.
      ...(req.tools.length ? { tools: req.tools as ChatCompletionTool[] } : {}),
      ...(answerCap(opts.maxOutputTokens, req.maxOutputTokens) ? outputLimitParam(opts.model, answerCap(opts.maxOutputTokens, req.maxOutputTokens)!) : {}),
      ...(opts.reasoningEffort ? { reasoning_effort: opts.reasoningEffort } : {}),
      stream: true,
      ...(omit.has('stream_options') ? {} : { stream_options: { include_usage: true } }),
    };
    const sent: OptionalParam[] = [...hints, ...(omit.has('stream_options') ? [] : ['stream_options' as const]), ...wire.sent];
    return { body: applyHints(body, hints, req.cacheKey), sent };
  }

  async function attempt(body: ChatCompletionCreateParamsStreaming, handlers: StreamHandlers, signal: AbortSignal, state: AttemptState): Promise<ModelResponse> {
    const ctrl = new AbortController();
    const onAbort = () => {
      state.cancelled = true;
      ctrl.abort();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        state.timedOut = true;
        ctrl.abort();
      }, timeoutMs);
    };
    arm();
    try {
      const { data: stream, response } = await attemptStore.run(state, () => sdk.chat.completions.create(body, { signal: ctrl.signal }).withResponse());
      state.started = true;
      arm();
      const call = (fn: ((t: string) => void) | undefined, text: string) => {
        if (!text) return;
        state.emitted = true;
        try {
          fn?.(text);
        } catch (e) {
          throw new HandlerError(e);
        }
      };
      const emit = (d: { text: string; reasoning: string }) => {
        call(handlers.onReasoning, d.reasoning);
        call(handlers.onText, d.text);
      };
      const contentType = response.headers.get('content-type') ?? '';
      const shape = bodyShape(contentType);
      if (shape === 'html') throw notAStreamError(at, contentType, await readCapped(response), true);
      if (shape === 'json') {
        const res = responseFromCompletion(at, await readCapped(response, 64 * 1024 * 1024));
        log('debug', `model endpoint ${endpoint} ignored stream: true and sent one JSON completion; using it`);
        emit({ text: res.text, reasoning: res.reasoning?.text ?? '' });
        return res;
      }
      const asm = new StreamAssembler();
      let chunks = 0;
      for await (const chunk of stream) {
        // Chunks already buffered still arrive after an abort: deliver none of them.
        if (state.cancelled || state.timedOut) break;
        arm();
        chunks++;
        emit(asm.add(chunk));
      }
      // The SDK ends iteration quietly when its signal aborts: find out why.
      if (state.cancelled || state.timedOut) throw new Error('aborted');
      if (!chunks && shape === 'other') throw notAStreamError(at, contentType, '', false);
      if (!asm.complete) throw new IncompleteStreamError();
      emit(asm.finish());
      if (asm.empty) {
        throw new ModelError('server', `${at} sent no answer: its stream carried ${asm.choices ? 'only empty choices' : 'no choices'} and usage (no text, no tool call, no finish reason).`);
      }
      return asm.result();
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** What this endpoint refused, shared with every client for it in this process. */
  const refused = refusedAt(endpoint);

  /** Drops optional parts the endpoint refused (for good), saying so once. */
  function refuse(params: readonly OptionalParam[], why: string): void {
    const fresh = params.filter((p) => !refused.has(p));
    for (const p of fresh) refused.add(p);
    if (fresh.length) {
      log('warn', `The model endpoint ${endpoint} refused ${listParams(fresh)} (${why}); requests there go without ${fresh.length === 1 ? 'it' : 'them'} from now on${fresh.some((p) => p === 'prompt_cache_key' || p === 'cache_control') ? ' (model.cacheHints: "off" sends no cache hints at all)' : ''}.`);
    }
  }

  async function complete(req: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResponse> {
    let { body, sent } = params(req, refused);
    /** Set for the one retry after an unreadable 400: every optional part left out. */
    let bare: OptionalParam[] | null = null;
    const cancelled = () => new ModelError('cancelled', `The request to the model endpoint ${endpoint} (model "${opts.model}") was cancelled.`);
    if (signal.aborted) throw cancelled();
    if (urlProblem) {
      log('warn', `model request failed [bad_request]: ${urlProblem}`);
      throw new ModelError('bad_request', urlProblem);
    }
    log('debug', `model request to ${endpoint}: model ${opts.model}, ${req.messages.length} messages, ${req.tools.length} tools`);
    for (let retry = 0; ; retry++) {
      const state: AttemptState = { cancelled: false, timedOut: false, started: false, emitted: false };
      try {
        const res = await attempt(body, handlers, signal, state);
        if (bare) refuse(bare, 'its 400 answer named nothing, and the request went through without them');
        if (res.usage) log('debug', `model usage: ${res.usage.promptTokens} prompt (${res.usage.cachedTokens} cached), ${res.usage.completionTokens} completion`);
        return res;
      } catch (e) {
        if (e instanceof HandlerError) throw e.original;
        if (signal.aborted) state.cancelled = true;
        const f = classifyFailure(e, state, ctx);
        const status = f.error.status;
        const named = !state.emitted ? refusedParams(status, f.error.message, sent) : [];
        if (named.length) {
          // The endpoint does not take these: send the request again without them, and never again.
          refuse(named, 'its 400 answer named them');
          ({ body, sent } = params(req, refused));
          retry--;
          continue;
        }
        const unreadable = (status === 400 || status === 422) && !readErrorBody(state.errorBody ?? '').message;
        if (unreadable && !bare && !state.emitted && sent.length) {
          bare = sent.slice();
          log('info', `the model endpoint ${endpoint} answered ${status} with no readable reason; trying once without ${listParams(bare)}`);
          ({ body, sent } = params(req, new Set([...refused, ...OPTIONAL_PARAMS])));
          retry--;
          continue;
        }
        if (!f.retryable || state.emitted || retry >= policy.maxRetries) {
          const gaveUp = f.retryable && retry > 0 && !state.emitted ? ` (gave up after ${retry} ${retry === 1 ? 'retry' : 'retries'})` : '';
          const hinted = f.error.kind === 'bad_request' && sent.includes('prompt_cache_key') ? ' The request carried the prompt_cache_key cache hint; if this endpoint does not take it, set model.cacheHints to "off".' : '';
          const err = gaveUp || hinted ? new ModelError(f.error.kind, f.error.message + gaveUp + hinted, f.error.status) : f.error;
          log(err.kind === 'cancelled' ? 'debug' : 'warn', `model request failed [${err.kind}]: ${err.message}`);
          throw err;
        }
        const delayMs = retryDelayMs(retry + 1, f.retryAfterMs, policy);
        const reason = f.error.message;
        log('info', `model request retry ${retry + 1}/${policy.maxRetries} in ${delayMs} ms: ${reason}`);
        handlers.onRetry?.({ attempt: retry + 1, delayMs, reason });
        await sleep(delayMs, signal, cancelled);
      }
    }
  }

  return { endpoint, model: opts.model, complete, dropped: () => [...refused] };
}
