/**
 * What the next model request should cost, before it is sent: its prompt tokens (the request's
 * characters at the session's own characters-per-token ratio, as compaction estimates them), the
 * part of them the provider's prompt cache should serve, and the output to expect.
 *
 * The cache: a provider caches prompt prefixes, so what the next request can read from the cache is
 * the prefix it shares with the previous request (the tools block, then each message, compared as
 * they go out). How much of a shared prefix the provider really serves is learned from the previous
 * request's cache read: cached tokens over the prefix it shared with the one before it. Before a
 * session has shown that (its second request), a model whose family caches (the cache price table)
 * is expected to serve a shared prefix of at least MIN_CACHED_TOKENS, any other nothing. A previous
 * request older than CACHE_TTL_MS is expected to have left the cache (and the miss that follows
 * teaches nothing about the provider).
 *
 * The output: the session's rounds so far on average (before its first, this agent's; before any, 0).
 */
import { createHash } from 'node:crypto';
import { requestSize } from '../../context/compaction/estimate';
import type { Usage, WireMessage, WireTool } from '../../model/types';
import { SessionStates } from '../../conversation/session-states';

/** Shortest prefix the common providers cache (OpenAI, Anthropic's Sonnet and Opus, Gemini). */
export const MIN_CACHED_TOKENS = 1024;
/** How long a cached prefix is expected to stay without use (OpenAI and Anthropic keep one 5 minutes at least). */
export const CACHE_TTL_MS = 5 * 60_000;

/** One part of a request as providers order a prompt: the tools block, then each message. */
interface Part {
  /** The part as sent, when it is small; a large one (a 20 MB write_file call) is kept as its hash only. */
  text?: string;
  /** sha256 of a large part's text. */
  hash?: string;
  chars: number;
  images: number;
}

/**
 * Parts longer than this are remembered by their hash (reliability N15: the forecast keeps the
 * last request of every session, which must not hold large tool-call arguments in memory);
 * a large part that changed counts nothing of its shared beginning.
 */
const KEEP_TEXT_CHARS = 64 * 1024;

function part(text: string, chars: number, images: number): Part {
  return text.length > KEEP_TEXT_CHARS ? { hash: createHash('sha256').update(text).digest('hex'), chars, images } : { text, chars, images };
}

export interface TokenCounter {
  /** Tokens of a request of this size in the session (calibrated by the provider's usage). */
  estimate(sessionId: string, size: { chars: number; images: number }): number;
}

export interface ExpectedTokens {
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** Tokens of the prefix this request shares with the previous one. */
  sharedTokens: number;
}

interface Sent {
  parts: Part[];
  sharedTokens: number;
  at: number;
  /** It went out after the cache had expired: the hit rate it would have had otherwise (its miss says nothing about the provider). */
  warmRate?: number;
  /** What the provider reported for it (absent until it answers, or when it reported nothing). */
  usage?: Usage;
}

function partsOf(wire: readonly WireMessage[], tools: readonly WireTool[]): Part[] {
  const parts: Part[] = [];
  if (tools.length) {
    const text = JSON.stringify(tools);
    parts.push(part(text, text.length, 0));
  }
  for (const m of wire) {
    const size = requestSize([m], []);
    parts.push(part(JSON.stringify(m), size.chars, size.images));
  }
  return parts;
}

/** The size of the longest common prefix of two requests, part by part (a part that differs counts up to its first different character). */
function sharedPrefix(prev: readonly Part[], next: readonly Part[]): { chars: number; images: number } {
  let chars = 0;
  let images = 0;
  for (let i = 0; i < Math.min(prev.length, next.length); i++) {
    const a = prev[i].text;
    const b = next[i].text;
    if (a === undefined || b === undefined ? prev[i].hash !== undefined && prev[i].hash === next[i].hash : a === b) {
      chars += next[i].chars;
      images += next[i].images;
      continue;
    }
    if (a === undefined || b === undefined) break;
    let n = 0;
    const max = Math.min(a.length, b.length);
    while (n < max && a.charCodeAt(n) === b.charCodeAt(n)) n++;
    chars += Math.min(n, next[i].chars);
    break;
  }
  return { chars, images };
}

export interface ForecastOptions {
  tokens: TokenCounter;
  /** Whether the model's family caches prompts at a discount (the cache price table knows it). */
  cacheKnown(): boolean;
  now?: () => number;
  /** Where the per-session requests and outputs are kept (the agent's; default: the forecast's own). */
  states?: SessionStates;
}

export class CostForecast {
  /** Per session: the last request that was sent, and the one in flight. */
  private readonly last: Map<string, Sent>;
  private readonly inFlight: Map<string, Sent>;
  private readonly outputs: Map<string, { sum: number; n: number }>;
  private readonly allOutputs = { sum: 0, n: 0 };

  constructor(private readonly o: ForecastOptions) {
    const states = o.states ?? new SessionStates();
    this.last = states.slice('forecast last request');
    this.inFlight = states.slice('forecast request in flight');
    this.outputs = states.slice('forecast outputs');
  }

  /** The request about to be sent in the session: its tokens, cache hit and output as expected. */
  expect(sessionId: string, wire: readonly WireMessage[], tools: readonly WireTool[]): ExpectedTokens {
    const parts = partsOf(wire, tools);
    const total = parts.reduce((acc, p) => ({ chars: acc.chars + p.chars, images: acc.images + p.images }), { chars: 0, images: 0 });
    const promptTokens = this.o.tokens.estimate(sessionId, total);
    const now = this.o.now?.() ?? Date.now();
    const prev = this.last.get(sessionId);
    const shared = prev ? sharedPrefix(prev.parts, parts) : { chars: 0, images: 0 };
    const sharedTokens = shared.chars || shared.images ? Math.min(promptTokens, this.o.tokens.estimate(sessionId, shared)) : 0;
    const warmRate = prev ? this.hitRate(prev, sharedTokens) : 0;
    const expired = !!prev && now - prev.at > CACHE_TTL_MS;
    this.inFlight.set(sessionId, { parts, sharedTokens, at: now, ...(expired ? { warmRate } : {}) });
    return { promptTokens, cachedTokens: expired ? 0 : Math.round(sharedTokens * warmRate), outputTokens: this.expectedOutput(sessionId), sharedTokens };
  }

  /** The provider's usage for the session's request in flight: what the next forecast learns from. */
  observe(sessionId: string, usage: Usage): void {
    const sent = this.inFlight.get(sessionId);
    if (sent) {
      this.inFlight.delete(sessionId);
      this.last.set(sessionId, { ...sent, usage });
    }
    if (usage.estimated) return;
    const o = this.outputs.get(sessionId) ?? { sum: 0, n: 0 };
    o.sum += usage.completionTokens;
    o.n++;
    this.outputs.set(sessionId, o);
    this.allOutputs.sum += usage.completionTokens;
    this.allOutputs.n++;
  }

  /** The share of a shared prefix the provider is expected to serve from its cache, from what the previous request showed. */
  private hitRate(prev: Sent, sharedTokens: number): number {
    const u = prev.usage;
    if (!u || u.estimated) return 0;
    if (prev.warmRate !== undefined && u.cachedTokens === 0) return prev.warmRate;
    // The previous request shared a cacheable prefix with the one before it (or read one): its read says how much of one is served.
    if (prev.sharedTokens > 0 && (prev.sharedTokens >= MIN_CACHED_TOKENS || u.cachedTokens > 0)) return Math.min(1, u.cachedTokens / prev.sharedTokens);
    // It shared none (the session's first request) or too little to show: a read says the provider caches; else the table decides.
    if (u.cachedTokens > 0) return 1;
    return this.o.cacheKnown() && sharedTokens >= MIN_CACHED_TOKENS ? 1 : 0;
  }

  private expectedOutput(sessionId: string): number {
    const o = this.outputs.get(sessionId);
    const from = o && o.n ? o : this.allOutputs;
    return from.n ? Math.round(from.sum / from.n) : 0;
  }
}
