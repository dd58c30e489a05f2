/**
 * Prompt-cache hints and the other optional parts of a request body. `prompt_cache_key` (OpenAI
 * and endpoints known to take it) routes a session's requests to the same cache; Claude models
 * behind OpenAI-compatible gateways (OpenRouter, LiteLLM) cache only at `cache_control`
 * breakpoints on content parts, so the system prompt and the last message carry one.
 *
 * Strict endpoints (Gemini's and Cerebras' OpenAI endpoints) refuse any field they do not know, so
 * `prompt_cache_key` goes only where it is known to be accepted (KEY_ACCEPTED), or everywhere with
 * model.cacheHints "on". An endpoint that refuses an optional part gets the request again without
 * it, and never gets it again from this process (optional-params.ts remembers it per endpoint).
 */
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { bareModelName } from './capabilities';

export type CacheHint = 'prompt_cache_key' | 'cache_control';

/** Parts of a request an endpoint may refuse and the request can do without. */
export type OptionalParam = CacheHint | 'stream_options' | 'reasoning_content' | 'reasoning_details';

export const OPTIONAL_PARAMS: readonly OptionalParam[] = ['prompt_cache_key', 'cache_control', 'stream_options', 'reasoning_content', 'reasoning_details'];

export type CacheHintMode = 'auto' | 'on' | 'off';

type Body = ChatCompletionCreateParamsStreaming;
type Msg = Body['messages'][number];

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Hosts whose Chat Completions endpoint takes `prompt_cache_key` (documented, or passed on to one
 * that does): OpenAI, Azure OpenAI, OpenRouter, DeepSeek. Anything else gets it only with "on".
 */
const KEY_ACCEPTED: readonly RegExp[] = [/^api\.openai\.com$/, /\.openai\.azure\.com$/, /\.cognitiveservices\.azure\.com$/, /^openrouter\.ai$/, /^api\.deepseek\.com$/];

/** Whether an endpoint is known to take prompt_cache_key. */
export function acceptsCacheKey(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return KEY_ACCEPTED.some((re) => re.test(host));
}

/** Which hints this request gets: none when off, none the endpoint refused, the key only where it is taken. */
export function hintsFor(model: string, mode: CacheHintMode, cacheKey: string | undefined, refused: ReadonlySet<OptionalParam>, baseUrl = ''): CacheHint[] {
  if (mode === 'off') return [];
  const out: CacheHint[] = [];
  if (cacheKey && !refused.has('prompt_cache_key') && (mode === 'on' || acceptsCacheKey(baseUrl))) out.push('prompt_cache_key');
  if (/claude/.test(bareModelName(model)) && !refused.has('cache_control')) out.push('cache_control');
  return out;
}

/** A text message's content as parts with a cache breakpoint on the last one (other messages unchanged). */
function withBreakpoint(m: Msg): Msg {
  const c = (m as { content?: unknown }).content;
  if (typeof c === 'string' && c.length > 0) return { ...m, content: [{ type: 'text', text: c, cache_control: EPHEMERAL }] } as unknown as Msg;
  if (Array.isArray(c) && c.length > 0) {
    const parts = c.slice();
    parts[parts.length - 1] = { ...parts[parts.length - 1], cache_control: EPHEMERAL };
    return { ...m, content: parts } as Msg;
  }
  return m;
}

/** The body with the given hints (a new object; the caller's messages are not changed). */
export function applyHints(body: Body, hints: CacheHint[], cacheKey: string | undefined): Body {
  let out: Body = body;
  if (hints.includes('prompt_cache_key') && cacheKey) out = { ...out, prompt_cache_key: cacheKey } as Body;
  if (hints.includes('cache_control') && out.messages.length) {
    const messages = out.messages.slice();
    const sys = messages.findIndex((m) => m.role === 'system');
    if (sys >= 0) messages[sys] = withBreakpoint(messages[sys]);
    const last = messages.length - 1;
    if (last !== sys) messages[last] = withBreakpoint(messages[last]);
    out = { ...out, messages };
  }
  return out;
}

/** Words with which a 400 refuses a field (and not, say, DeepSeek asking for reasoning_content to be sent back). */
const REFUSAL = /unrecogni[sz]ed|unknown|not permitted|not allowed|unsupported|not supported|extra (inputs|fields?|param)|invalid (json payload|field|param)|unexpected|cannot find field|no such/i;

/**
 * The optional parts a 400/422 answer refuses ("Unrecognized request argument supplied:
 * prompt_cache_key", "Invalid JSON payload received. Unknown name \"prompt_cache_key\"",
 * "cache_control: extra inputs are not permitted"), among those sent.
 */
export function refusedParams(status: number | undefined, message: string, sent: readonly OptionalParam[]): OptionalParam[] {
  if (status !== 400 && status !== 422) return [];
  if (!REFUSAL.test(message) || /must be (passed|sent|included)/i.test(message)) return [];
  return sent.filter((p) => message.includes(p));
}
