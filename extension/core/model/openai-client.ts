/**
 * ModelClient for any OpenAI-compatible endpoint, on the `openai` SDK: streaming Chat
 * Completions with usage, our own retries (so each one can be reported), a first-byte and
 * idle timeout, and failures turned into ModelErrors that name endpoint and model.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { baseUrlProblem, classifyFailure, displayEndpoint, IncompleteStreamError, type AttemptState, type ErrorContext } from './errors';
import { bodyShape, notAStreamError, readCapped, responseFromCompletion } from './non-stream';
import { defaultRetryTiming, retryDelayMs, sleep, type RetryPolicy } from './retry';
import { applyHints, hintsFor, refusedHint, type HintState } from './cache-hints';
import { StreamAssembler } from './stream-assembler';
import { ModelError, type ModelClient, type ModelRequest, type ModelResponse, type StreamHandlers } from './types';

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
  /** model.cacheHints: prompt_cache_key, and cache_control breakpoints for Claude models (default 'auto'). */
  cacheHints?: 'auto' | 'off';
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
  });
  const at = `The model endpoint ${endpoint} (model "${opts.model}")`;
  const urlProblem = baseUrlProblem(opts.baseUrl);

  function params(req: ModelRequest): ChatCompletionCreateParamsStreaming {
    return {
      model: opts.model,
      messages: req.messages as ChatCompletionMessageParam[],
      // The caller's array itself, so unchanged rounds serialize to identical bytes.
      ...(req.tools.length ? { tools: req.tools as ChatCompletionTool[] } : {}),
      ...(opts.maxOutputTokens ? outputLimitParam(opts.model, opts.maxOutputTokens) : {}),
      stream: true,
      stream_options: { include_usage: true },
    };
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
      const { data: stream, response } = await sdk.chat.completions.create(body, { signal: ctrl.signal }).withResponse();
      state.started = true;
      arm();
      const emit = (text: string) => {
        state.emitted = true;
        try {
          handlers.onText?.(text);
        } catch (e) {
          throw new HandlerError(e);
        }
      };
      const contentType = response.headers.get('content-type') ?? '';
      const shape = bodyShape(contentType);
      if (shape === 'html') throw notAStreamError(at, contentType, await readCapped(response), true);
      if (shape === 'json') {
        const res = responseFromCompletion(at, await readCapped(response, 64 * 1024 * 1024));
        log('debug', `model endpoint ${endpoint} ignored stream: true and sent one JSON completion; using it`);
        if (res.text) emit(res.text);
        return res;
      }
      const asm = new StreamAssembler();
      let chunks = 0;
      for await (const chunk of stream) {
        // Chunks already buffered still arrive after an abort: deliver none of them.
        if (state.cancelled || state.timedOut) break;
        arm();
        chunks++;
        const text = asm.add(chunk);
        if (text) emit(text);
      }
      // The SDK ends iteration quietly when its signal aborts: find out why.
      if (state.cancelled || state.timedOut) throw new Error('aborted');
      if (!chunks && shape === 'other') throw notAStreamError(at, contentType, '', false);
      if (!asm.complete) throw new IncompleteStreamError();
      if (asm.empty) {
        throw new ModelError('server', `${at} sent no answer: its stream carried ${asm.choices ? 'only empty choices' : 'no choices'} and usage (no text, no tool call, no finish reason).`);
      }
      return asm.result();
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  const hintState: HintState = { refused: new Set() };

  async function complete(req: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResponse> {
    let hints = hintsFor(opts.model, opts.cacheHints ?? 'auto', req.cacheKey, hintState);
    let body = applyHints(params(req), hints, req.cacheKey);
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
        if (res.usage) log('debug', `model usage: ${res.usage.promptTokens} prompt (${res.usage.cachedTokens} cached), ${res.usage.completionTokens} completion`);
        return res;
      } catch (e) {
        if (e instanceof HandlerError) throw e.original;
        if (signal.aborted) state.cancelled = true;
        const f = classifyFailure(e, state, ctx);
        const refused = !state.emitted ? refusedHint(f.error.status, f.error.message, hints) : undefined;
        if (refused) {
          // The endpoint does not take this hint: send the request again without it, and never again.
          hintState.refused.add(refused);
          log('info', `the endpoint refused the ${refused} cache hint; sending without it from now on`);
          hints = hints.filter((h) => h !== refused);
          body = applyHints(params(req), hints, req.cacheKey);
          retry--;
          continue;
        }
        if (!f.retryable || state.emitted || retry >= policy.maxRetries) {
          const gaveUp = f.retryable && retry > 0 && !state.emitted ? ` (gave up after ${retry} ${retry === 1 ? 'retry' : 'retries'})` : '';
          const err = gaveUp ? new ModelError(f.error.kind, f.error.message + gaveUp, f.error.status) : f.error;
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

  return { endpoint, model: opts.model, complete };
}
