/**
 * Turns whatever a model request threw (SDK errors, fetch/socket errors, our own timeout
 * and cut detection) into a ModelError whose message a user can act on: it names the
 * endpoint and the model, and never contains the API key.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError, type ModelErrorKind } from './types';
import { retryAfterMs } from './retry';
import { readErrorBody } from './error-body';
import { plainServerText } from './errors-text';

export { plainServerText, SERVER_TEXT_CHARS } from './errors-text';

export interface ErrorContext {
  /** The endpoint as shown to users (see displayEndpoint). */
  endpoint: string;
  model: string;
  apiKey: string;
  timeoutS: number;
}

/** What went wrong in one attempt, as seen by the attempt itself. */
export interface AttemptState {
  /** The user's signal aborted. */
  cancelled: boolean;
  /** Our first-byte or idle timer fired. */
  timedOut: boolean;
  /** The HTTP response had started (status 200 received). */
  started: boolean;
  /** Text has been handed to handlers.onText. */
  emitted: boolean;
  /** The body of an HTTP error answer as the server sent it (the SDK reads only `{error:{...}}` bodies). */
  errorBody?: string;
}

export interface Failure {
  error: ModelError;
  /** Worth another attempt, if nothing has been streamed yet. */
  retryable: boolean;
  /** The server's Retry-After, in ms. */
  retryAfterMs: number | null;
}

/** The stream ended cleanly but without a finish reason or usage: the answer is incomplete. */
export class IncompleteStreamError extends Error {}

/** Base URL without credentials, query or trailing slash: safe to show and log. */
export function displayEndpoint(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return baseUrl.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
  }
}

/** Removes the key, and anything shaped like a secret key, from text that came from a server. */
export function scrubSecrets(text: string, apiKey: string): string {
  let out = text;
  if (apiKey.length >= 4) out = out.split(apiKey).join('[redacted]');
  return out.replace(/\b(sk|pk|rk|key)-[A-Za-z0-9_*-]{8,}/g, '[redacted]').replace(/Bearer\s+\S+/gi, 'Bearer [redacted]');
}

/**
 * How providers and servers word "the request does not fit the window": OpenAI and most
 * (context_length_exceeded, "maximum context length"), Anthropic and gateways ("prompt is too
 * long", "exceed context limit"), vLLM ("maximum context length is N tokens"), Hugging Face TGI
 * ("`inputs` tokens + `max_new_tokens` must be <= N"), llama.cpp server ("exceeds the available
 * context size", exceed_context_size_error), Ollama ("prompt too long", "exceeds the context
 * length"), LM Studio ("context length of only N tokens", "context overflow"), Gemini ("input token
 * count (N) exceeds the maximum number of tokens"), Mistral ("too large for model with N maximum
 * context length"), Groq and Cerebras ("reduce the length of the messages", "Current length is N
 * while limit is M").
 */
const contextPattern = new RegExp(
  [
    'context[_ ]length',
    'maximum context',
    'context window',
    'too many tokens',
    'prompt is too long',
    'prompt too long',
    'input is too long',
    'reduce the length of the messages',
    'maximum (input|prompt) length',
    "exceeds? the (model'?s? )?(max|maximum|token) ",
    'exceeds? (the )?context limit',
    'tokens \\+ `?max_new_tokens`? must be',
    'exceeds? the available context size',
    'exceed_context_size',
    'context size has been exceeded',
    'larger than the max context size',
    'context overflow',
    'input token count \\(?\\d+\\)? exceeds the maximum number of tokens',
    'current length is \\d+ while limit is \\d+',
    'too large for model with \\d+ maximum context',
    'maximum model length',
    'input exceeds context length',
  ].join('|'),
  'i',
);

/** A 400-class reply that says the request does not fit the model's context window. */
export function isContextLengthError(status: number | undefined, code: unknown, message: string): boolean {
  if (status !== undefined && ![400, 413, 422, 500].includes(status)) return false;
  if (code === 'context_length_exceeded' || code === 'string_above_max_length' || code === 'exceed_context_size_error') return true;
  return contextPattern.test(message) || (status !== 500 && tokenCountsOverLimit(message));
}

/** Wording no pattern knows that still names a token count over a limit of the prompt or context ("prompt has 41000 tokens, the limit is 32768"). */
function tokenCountsOverLimit(message: string): boolean {
  if (!/\btokens?\b/i.test(message) || !/\b(context|prompt|input|sequence)\b/i.test(message) || !/\b(limit|maximum|max|exceeds?|longer than|more than|too long)\b/i.test(message)) return false;
  const numbers = [...message.matchAll(/\d[\d,]{2,}/g)].map((m) => Number(m[0].replace(/,/g, '')));
  return numbers.length >= 2 && Math.max(...numbers) > Math.min(...numbers);
}

/**
 * The context window an error states, in tokens, when it says one: "maximum context length is
 * 10000 tokens", "context length of only 4096 tokens", "> 200000 maximum", "exceeds the available
 * context size (8192 tokens)", "maximum number of tokens allowed (1048576)", "maximum model length
 * of 32768", "must be <= 4096", "limit is 32768", "n_ctx": 8192.
 */
export function statedContextWindow(message: string): number | undefined {
  const patterns = [
    /maximum context length is (\d[\d,]*)/i,
    /context length of only (\d[\d,]*)/i,
    />\s*(\d[\d,]*)\s*maximum/i,
    /context size \((\d[\d,]*) tokens\)/i,
    /maximum number of tokens allowed \((\d[\d,]*)\)/i,
    /maximum model length of (\d[\d,]*)/i,
    /must be <=\s*(\d[\d,]*)/i,
    /limit is (\d[\d,]*)/i,
    /with (\d[\d,]*) maximum context length/i,
    /"?n_ctx"?\s*[:=]\s*(\d+)/i,
    /context (?:window|limit)(?: is| of)?:? (\d[\d,]*)/i,
  ];
  for (const re of patterns) {
    const m = re.exec(message);
    const n = m ? Number(m[1].replace(/,/g, '')) : NaN;
    if (Number.isFinite(n) && n >= 512) return n;
  }
  return undefined;
}

/** The server's own words and code: from the body as sent when we have it (any shape), else what the SDK read. Not yet capped. */
function serverDetail(e: APIError, body: string | undefined): { text: string; code: unknown } {
  if (body !== undefined) {
    const read = readErrorBody(body);
    if (read.message) return { text: plainServerText(read.message, Infinity), code: e.code ?? read.code ?? read.type };
  }
  const err = e.error as { message?: unknown } | undefined;
  const raw = typeof err?.message === 'string' ? err.message : e.message.replace(/^\d{3}\s*/, '').replace(/^status code \(no body\)$/, '');
  return { text: plainServerText(raw, Infinity), code: e.code };
}

/** Why a base URL cannot be an OpenAI-compatible endpoint (null when it can): not a URL, or not http(s). */
export function baseUrlProblem(baseUrl: string): string | null {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return `model.baseUrl ${JSON.stringify(displayEndpoint(baseUrl))} is not a URL: give an http:// or https:// URL (it usually ends in /v1).`;
  }
  if (u.protocol === 'http:' || u.protocol === 'https:') return null;
  return `model.baseUrl ${displayEndpoint(baseUrl)} uses the ${u.protocol} scheme; model endpoints are reached over HTTP: give an http:// or https:// URL (it usually ends in /v1).`;
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

/** The error codes and messages along an error's cause chain (AggregateError members included). */
function causeChain(e: unknown): Array<{ code?: string; message: string }> {
  const out: Array<{ code?: string; message: string }> = [];
  const queue: unknown[] = [e];
  while (queue.length && out.length < 12) {
    const cur = queue.shift();
    if (!(cur instanceof Error)) continue;
    const code = (cur as { code?: unknown }).code;
    out.push({ code: typeof code === 'string' ? code : undefined, message: cur.message });
    const { cause, errors } = cur as { cause?: unknown; errors?: unknown };
    queue.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return out;
}

/** Whether a URL's host is this machine: localhost, 127.0.0.0/8 (IPv4-mapped too), ::1 or 0.0.0.0. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1' || host === '0.0.0.0' || /^::ffff:7f[0-9a-f]{2}:/.test(host);
}

function portOf(url: string): string {
  try {
    const u = new URL(url);
    return u.port || (u.protocol === 'https:' ? '443' : '80');
  } catch {
    return '?';
  }
}

/**
 * A connection failure no retry can fix, said plainly: nothing listening at a loopback endpoint
 * (the local server is not running), or a port Node's fetch never connects to ("bad port").
 * Null for anything else (those stay retryable).
 */
export function unreachableReason(e: unknown, ctx: Pick<ErrorContext, 'endpoint' | 'model'>): string | null {
  const chain = causeChain(e);
  if (chain.some((c) => c.message === 'bad port')) {
    const port = portOf(ctx.endpoint);
    return `Cannot connect to ${ctx.endpoint}: port ${port} is one Node's fetch never connects to (a "bad port") — run the server on another port (model "${ctx.model}"; nothing was sent).`;
  }
  if (isLoopbackUrl(ctx.endpoint) && chain.some((c) => c.code === 'ECONNREFUSED')) {
    return `Nothing is listening at ${ctx.endpoint} — is the server running? (connection refused; model "${ctx.model}")`;
  }
  return null;
}

/** Whether a request carried no real key (none given: the SDK sends the placeholder "none"). */
export function noKeySent(apiKey: string): boolean {
  return !apiKey || apiKey === 'none';
}

function httpFailure(e: APIError, ctx: ErrorContext, body: string | undefined): Failure {
  const status = e.status as number | undefined;
  const at = `the model endpoint ${ctx.endpoint} (model "${ctx.model}")`;
  const server = serverDetail(e, body);
  const detail = scrubSecrets(server.text, ctx.apiKey);
  const quoted = plainServerText(detail);
  const said = quoted ? `; the server said: ${quoted}` : '';
  const make = (kind: ModelErrorKind, message: string, retryable = false): Failure => ({
    error: new ModelError(kind, message, status),
    retryable,
    retryAfterMs: retryAfterMs(e.headers),
  });
  if (isContextLengthError(status, server.code, detail)) {
    return make('context_length', `The request does not fit the context window of model "${ctx.model}" at ${ctx.endpoint}${status ? ` (HTTP ${status})` : ''}${said}`);
  }
  if (status === undefined) return make('server', `The stream from ${at} reported an error${said}`, true);
  if (status === 401) {
    const why = noKeySent(ctx.apiKey) ? 'no API key was sent, and this endpoint needs one' : 'check the API key for this endpoint';
    return make('auth', `Authentication failed (HTTP 401) at ${at}: ${why}${said}`);
  }
  if (status === 403) return make('auth', `Access denied (HTTP 403) at ${at}: the API key may lack permission for this model${said}`);
  if (status === 404) {
    return make('not_found', `Not found (HTTP 404) at ${at}: the model name may be wrong, or the base URL is not an OpenAI-compatible endpoint (it usually ends in /v1)${said}`);
  }
  if (status === 429) {
    if (server.code === 'insufficient_quota') return make('rate_limited', `Quota exhausted (HTTP 429) at ${at}${said}`);
    return make('rate_limited', `Rate limited (HTTP 429) by ${at}${said}`, true);
  }
  if (status === 408) return make('timeout', `Request timed out (HTTP 408) at ${at}${said}`, true);
  if (status === 409 || status >= 500) return make('server', `Server error (HTTP ${status}) at ${at}${said}`, true);
  return make('bad_request', `Request rejected (HTTP ${status}) by ${at}${said}`);
}

/** Classifies one failed attempt. */
export function classifyFailure(e: unknown, state: AttemptState, ctx: ErrorContext): Failure {
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
    // A local server that is not running, or a blocked port: no retry can help, so say it at once.
    const unreachable = unreachableReason(e, ctx);
    if (unreachable) return plain('network', unreachable, false);
    return plain('network', `Could not reach ${at}: ${causeText(e.cause ?? e)}`, true);
  }
  if (e instanceof APIError) return httpFailure(e, ctx, state.errorBody);
  if (e instanceof IncompleteStreamError) {
    return plain('stream_cut', `The stream from ${at} ended before the answer was complete (no finish reason).`, true);
  }
  if (state.started) {
    const why = e instanceof SyntaxError ? `an unreadable chunk (${e.message})` : `the connection broke (${causeText(e)})`;
    const when = state.emitted ? 'after part of the answer had streamed (that partial answer was not saved)' : 'before any text arrived';
    return plain('stream_cut', `The stream from ${at} was cut ${when}: ${why}.`, true);
  }
  return plain('network', `Request to ${at} failed: ${causeText(e)}`, true);
}
