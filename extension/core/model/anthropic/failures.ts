/**
 * What an Anthropic request threw, as a ModelError a user can act on, worded like the
 * OpenAI-compatible client's (../errors): it names the endpoint and the model, quotes Anthropic's
 * own message, and never carries the key. 429, 529 (overloaded_error), 5xx and an `error` event
 * in the stream are worth another attempt (before anything streamed); 400 "prompt is too long"
 * is context_length.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { IncompleteStreamError, isContextLengthError, noKeySent, plainServerText, scrubSecrets, unreachableReason, type AttemptState, type ErrorContext, type Failure } from '../errors';
import { retryAfterMs } from '../retry';
import { ModelError, type ModelErrorKind } from '../types';

/** Anthropic's own words and error type: `{type: "error", error: {type, message}}` as the SDK read it, else its message. */
function serverDetail(e: APIError): { text: string; type: string | undefined } {
  const body = e.error as { error?: { type?: unknown; message?: unknown }; type?: unknown; message?: unknown } | string | undefined;
  const inner: { type?: unknown; message?: unknown } | undefined = typeof body === 'object' && body ? (body.error ?? body) : undefined;
  const type = typeof inner?.type === 'string' ? inner.type : undefined;
  if (typeof inner?.message === 'string') return { text: inner.message, type };
  if (typeof body === 'string') return { text: body, type };
  // The SDK's own message: "<status> <body text>" for a body that is not JSON.
  return { text: e.message.replace(/^\d{3}\s*/, '').replace(/^status code \(no body\)$/, ''), type };
}

function causeText(e: unknown): string {
  let cur: unknown = e;
  const parts: string[] = [];
  for (let i = 0; i < 4 && cur instanceof Error; i++) {
    const code = (cur as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${code}: ${cur.message}` : cur.message);
    cur = (cur as { cause?: unknown }).cause;
  }
  return parts.filter((p, i) => p && parts.indexOf(p) === i).join(' <- ');
}

/** Error types an `error` event in the stream may carry that another attempt can fix. */
const TRANSIENT_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

function httpFailure(e: APIError, ctx: ErrorContext): Failure {
  const status = e.status as number | undefined;
  const at = `the model endpoint ${ctx.endpoint} (model "${ctx.model}")`;
  const server = serverDetail(e);
  const detail = scrubSecrets(plainServerText(server.text, Infinity), ctx.apiKey);
  const quoted = plainServerText(detail);
  const said = quoted ? `; the server said: ${quoted}` : '';
  const make = (kind: ModelErrorKind, message: string, retryable = false): Failure => ({
    error: new ModelError(kind, message, status),
    retryable,
    retryAfterMs: retryAfterMs(e.headers),
  });
  if (isContextLengthError(status, server.type, detail)) {
    return make('context_length', `The request does not fit the context window of model "${ctx.model}" at ${ctx.endpoint}${said}`);
  }
  if (status === undefined) {
    // An `error` event inside a stream that had started with HTTP 200.
    const kind: ModelErrorKind = server.type === 'rate_limit_error' ? 'rate_limited' : 'server';
    const named = server.type ? ` (${server.type})` : '';
    return make(kind, `The stream from ${at} reported an error${named}${said}`, !server.type || TRANSIENT_TYPES.has(server.type));
  }
  if (status === 401) {
    const why = noKeySent(ctx.apiKey) ? 'no API key was sent, and Anthropic needs one' : 'check the API key for this endpoint';
    return make('auth', `Authentication failed (HTTP 401) at ${at}: ${why}${said}`);
  }
  if (status === 403) return make('auth', `Access denied (HTTP 403) at ${at}: the API key may lack permission for this model${said}`);
  if (status === 404) return make('not_found', `Not found (HTTP 404) at ${at}: the model name may be wrong, or the base URL is not Anthropic's Messages API (it has no /v1 at the end)${said}`);
  if (status === 429) return make('rate_limited', `Rate limited (HTTP 429) by ${at}${said}`, true);
  if (status === 529) return make('server', `Overloaded (HTTP 529) at ${at}${said}`, true);
  if (status === 408) return make('timeout', `Request timed out (HTTP 408) at ${at}${said}`, true);
  if (status === 409 || status >= 500) return make('server', `Server error (HTTP ${status}) at ${at}${said}`, true);
  return make('bad_request', `Request rejected (HTTP ${status}) by ${at}${said}`);
}

/** Classifies one failed attempt of the Anthropic client. */
export function classifyAnthropicFailure(e: unknown, state: AttemptState, ctx: ErrorContext): Failure {
  const at = `the model endpoint ${ctx.endpoint} (model "${ctx.model}")`;
  const plain = (kind: ModelErrorKind, message: string, retryable: boolean): Failure => ({
    error: new ModelError(kind, scrubSecrets(message, ctx.apiKey)),
    retryable,
    retryAfterMs: null,
  });
  if (e instanceof ModelError) return { error: e, retryable: false, retryAfterMs: null };
  if (state.cancelled) return plain('cancelled', `The request to ${at} was cancelled.`, false);
  if (state.timedOut || e instanceof APIConnectionTimeoutError) {
    return state.started
      ? plain('timeout', `${at} went silent for more than ${ctx.timeoutS}s in the middle of its answer (model.requestTimeoutS).`, true)
      : plain('timeout', `No response from ${at} within ${ctx.timeoutS}s (model.requestTimeoutS).`, true);
  }
  if (e instanceof APIUserAbortError) return plain('cancelled', `The request to ${at} was aborted.`, false);
  if (e instanceof APIConnectionError) {
    const unreachable = unreachableReason(e, ctx);
    if (unreachable) return plain('network', unreachable, false);
    return plain('network', `Could not reach ${at}: ${causeText(e.cause ?? e)}`, true);
  }
  if (e instanceof APIError) return httpFailure(e, ctx);
  if (e instanceof IncompleteStreamError) {
    return plain('stream_cut', `The stream from ${at} ended before the answer was complete (no stop reason).`, true);
  }
  if (state.started) {
    const why = e instanceof SyntaxError ? `an unreadable event (${e.message})` : `the connection broke (${causeText(e)})`;
    const when = state.emitted ? 'after part of the answer had streamed (that partial answer was not saved)' : 'before any text arrived';
    return plain('stream_cut', `The stream from ${at} was cut ${when}: ${why}.`, true);
  }
  return plain('network', `Request to ${at} failed: ${causeText(e)}`, true);
}
