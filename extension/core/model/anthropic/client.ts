/**
 * ModelClient for Anthropic's Messages API, on `@anthropic-ai/sdk`: streaming with prompt-cache
 * breakpoints (request.ts), raw events folded into one answer (stream.ts), our own retries with
 * backoff that honours retry-after (the SDK's are off, so each one is reported), a first-byte and
 * idle timeout, and failures as ModelErrors that name endpoint and model (failures.ts).
 */
import Anthropic from '@anthropic-ai/sdk';
import { displayEndpoint, IncompleteStreamError, type AttemptState, type ErrorContext } from '../errors';
import { defaultRetryTiming, retryDelayMs, sleep, type RetryPolicy } from '../retry';
import { ModelError, type ModelClient, type ModelRequest, type ModelResponse, type StreamHandlers } from '../types';
import { classifyAnthropicFailure } from './failures';
import { countBreakpoints, messagesParams } from './request';
import { AnthropicStreamAssembler } from './stream';

export type AnthropicLog = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

/** Anthropic's own API; model.baseUrl replaces it only when the user points it at another server. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicClientOptions {
  /** e.g. https://api.anthropic.com (no /v1: the SDK adds it). */
  baseUrl: string;
  /** Never logged or shown; empty: none (requests then fail with 401). */
  apiKey: string;
  model: string;
  /** model.maxOutputTokens: most tokens per answer (null: defaultMaxTokens). */
  maxOutputTokens?: number | null;
  /** model.thinkingBudgetTokens: extended thinking's budget (null: off). */
  thinkingBudgetTokens?: number | null;
  /** Seconds to wait for the first byte, and between stream events. */
  requestTimeoutS: number;
  /** Retries on 408/409/429/529/5xx, error events, timeouts and network errors, before anything streamed. */
  maxRetries: number;
  /** model.cacheHints: "off" sends no cache_control breakpoints (default 'auto'). */
  cacheHints?: 'auto' | 'on' | 'off';
  log?: AnthropicLog;
  /** First backoff delay in ms (default 500); doubles per retry. */
  retryBaseDelayMs?: number;
  /** Bound on any retry delay, retry-after included (default 30,000 ms). */
  retryMaxDelayMs?: number;
}

/** A handler (onText) threw: its error goes to the caller untouched, never retried. */
class HandlerError extends Error {
  constructor(readonly original: unknown) {
    super('stream handler failed');
  }
}

/** The SDK's logger: its warnings and errors become short debug lines (never the key: the SDK does not log headers at "warn"). */
function sdkLogger(log: AnthropicLog) {
  const line = (args: unknown[]) => {
    const text = args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    log('debug', `anthropic sdk: ${text.length > 300 ? `${text.slice(0, 299)}…` : text}`);
  };
  return { error: (...a: unknown[]) => line(a), warn: (...a: unknown[]) => line(a), info: () => {}, debug: () => {} };
}

/** The SDK client for an endpoint and key: no retries of its own, nothing taken from the environment. */
export function anthropicSdk(baseUrl: string, apiKey: string, timeoutMs: number, log: AnthropicLog = () => {}): Anthropic {
  return new Anthropic({
    baseURL: baseUrl,
    // Always a string: without one the SDK would look for credentials in the environment and config files.
    apiKey: apiKey || 'none',
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'warn',
    logger: sdkLogger(log),
    openTelemetry: false,
  });
}

export function createAnthropicClient(opts: AnthropicClientOptions): ModelClient {
  const endpoint = displayEndpoint(opts.baseUrl);
  const timeoutMs = Math.max(1, Math.round(opts.requestTimeoutS * 1000));
  const policy: RetryPolicy = {
    maxRetries: Math.max(0, Math.floor(opts.maxRetries)),
    baseDelayMs: opts.retryBaseDelayMs ?? defaultRetryTiming.baseDelayMs,
    maxDelayMs: opts.retryMaxDelayMs ?? defaultRetryTiming.maxDelayMs,
  };
  const ctx: ErrorContext = { endpoint, model: opts.model, apiKey: opts.apiKey, timeoutS: opts.requestTimeoutS };
  const log: AnthropicLog = opts.log ?? (() => {});
  // A backstop only: our own timer (first byte and idle) fires first.
  const sdk = anthropicSdk(opts.baseUrl, opts.apiKey, timeoutMs + 1000, log);
  const at = `The model endpoint ${endpoint} (model "${opts.model}")`;

  async function attempt(body: ReturnType<typeof messagesParams>, handlers: StreamHandlers, signal: AbortSignal, state: AttemptState): Promise<ModelResponse> {
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
      const stream = await sdk.messages.create(body, { signal: ctrl.signal });
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
      const asm = new AnthropicStreamAssembler();
      for await (const event of stream) {
        // Events already buffered still arrive after an abort: deliver none of them.
        if (state.cancelled || state.timedOut) break;
        arm();
        const d = asm.add(event);
        call(handlers.onReasoning, d.reasoning);
        call(handlers.onText, d.text);
      }
      // The SDK ends iteration quietly when its signal aborts: find out why.
      if (state.cancelled || state.timedOut) throw new Error('aborted');
      if (!asm.complete) throw new IncompleteStreamError();
      if (asm.empty) throw new ModelError('server', `${at} sent no answer: its stream carried no text, no tool call and no stop reason.`);
      return asm.result();
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  async function complete(req: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResponse> {
    const cancelled = () => new ModelError('cancelled', `The request to the model endpoint ${endpoint} (model "${opts.model}") was cancelled.`);
    if (signal.aborted) throw cancelled();
    const body = messagesParams(req, {
      model: opts.model,
      maxOutputTokens: req.maxOutputTokens ? Math.min(req.maxOutputTokens, opts.maxOutputTokens ?? req.maxOutputTokens) : opts.maxOutputTokens,
      thinkingBudgetTokens: opts.thinkingBudgetTokens,
      cacheBreakpoints: (opts.cacheHints ?? 'auto') !== 'off',
    });
    log('debug', `model request to ${endpoint}: model ${opts.model}, ${req.messages.length} messages, ${req.tools.length} tools, ${countBreakpoints(body)} cache breakpoints`);
    for (let retry = 0; ; retry++) {
      const state: AttemptState = { cancelled: false, timedOut: false, started: false, emitted: false };
      try {
        const res = await attempt(body, handlers, signal, state);
        if (res.usage) log('debug', `model usage: ${res.usage.promptTokens} prompt (${res.usage.cachedTokens} cached, ${res.usage.cacheWriteTokens ?? 0} written to the cache), ${res.usage.completionTokens} completion`);
        return res;
      } catch (e) {
        if (e instanceof HandlerError) throw e.original;
        if (signal.aborted) state.cancelled = true;
        const f = classifyAnthropicFailure(e, state, ctx);
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
