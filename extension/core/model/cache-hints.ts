/**
 * Prompt-cache hints in the request body. `prompt_cache_key` (OpenAI and compatible endpoints)
 * routes a session's requests to the same cache; Claude models behind OpenAI-compatible gateways
 * (OpenRouter, LiteLLM) cache only at `cache_control` breakpoints on content parts, so the system
 * prompt and the last message carry one. An endpoint that rejects a hint gets the request again
 * without it, and the client stops sending that hint (cache-hints state lives in the client).
 */
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { bareModelName } from './capabilities';

export type CacheHint = 'prompt_cache_key' | 'cache_control';

export interface HintState {
  /** Hints an endpoint refused: never sent again by this client. */
  refused: Set<CacheHint>;
}

type Body = ChatCompletionCreateParamsStreaming;
type Msg = Body['messages'][number];

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Which hints this request gets: none when off, none already refused. */
export function hintsFor(model: string, mode: 'auto' | 'off', cacheKey: string | undefined, state: HintState): CacheHint[] {
  if (mode === 'off') return [];
  const out: CacheHint[] = [];
  if (cacheKey && !state.refused.has('prompt_cache_key')) out.push('prompt_cache_key');
  if (/claude/.test(bareModelName(model)) && !state.refused.has('cache_control')) out.push('cache_control');
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

/** The hint a 400 answer refuses ("Unrecognized request argument supplied: prompt_cache_key", "cache_control: extra inputs are not permitted"), if any. */
export function refusedHint(status: number | undefined, message: string, sent: CacheHint[]): CacheHint | undefined {
  if (status !== 400 && status !== 422) return undefined;
  return sent.find((h) => message.includes(h));
}
