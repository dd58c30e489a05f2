/**
 * Money under prompt caching, from recorded request bodies. Each request is serialized as providers
 * order a prompt: the tools block (JSON of `tools`), then the system message, then each other
 * message in order (JSON of each), tokenized with o200k_base part by part. The cached part of a
 * request is its longest common token prefix with any earlier request of the same session, counted
 * only from 1,024 tokens and in steps of 128 (OpenAI's rule; Anthropic and others cache by similar
 * prefixes). A request costs `cached × discount + uncached × writePremium` in units of one uncached
 * input token (output tokens are the same on both sides and left out).
 */
import { encode } from 'gpt-tokenizer';

export interface PriceModel {
  name: string;
  /** Cached input as a fraction of uncached. */
  discount: number;
  /** Uncached input written to the cache, as a multiple of uncached (Anthropic: 1.25). */
  writePremium: number;
}

export const PRICE_MODELS: PriceModel[] = [
  { name: 'no caching', discount: 1, writePremium: 1 },
  { name: 'cached at 50%', discount: 0.5, writePremium: 1 },
  { name: 'cached at 25%', discount: 0.25, writePremium: 1 },
  { name: 'cached at 10%, writes at 125%', discount: 0.1, writePremium: 1.25 },
];

const MIN_CACHED = 1024;
const STEP = 128;

/** Token ids of one request in provider order; parts are tokenized once and reused across requests. */
export class RequestTokenizer {
  private readonly memo = new Map<string, number[]>();

  tokens(body: { messages: Array<{ role: string }>; tools?: unknown[] }): number[] {
    const parts = [JSON.stringify(body.tools ?? []), ...body.messages.filter((m) => m.role === 'system').map((m) => JSON.stringify(m)), ...body.messages.filter((m) => m.role !== 'system').map((m) => JSON.stringify(m))];
    const out: number[] = [];
    for (const p of parts) {
      let t = this.memo.get(p);
      if (!t) {
        t = encode(p);
        this.memo.set(p, t);
      }
      for (const x of t) out.push(x);
    }
    return out;
  }
}

export interface SessionCache {
  /** Tokens of each request, and the cached part of each. */
  total: number[];
  cached: number[];
}

/** What the provider caches of a common prefix of `n` tokens: none below 1,024, then whole 128-token steps. */
export function cachedPart(n: number): number {
  return n < MIN_CACHED ? 0 : Math.floor(n / STEP) * STEP;
}

/** Cached tokens of each request of one session (longest common prefix with an earlier request). */
export function simulateCache(requests: number[][]): SessionCache {
  const total: number[] = [];
  const cached: number[] = [];
  for (let k = 0; k < requests.length; k++) {
    const r = requests[k];
    let best = 0;
    // Newest first: the previous request usually shares the longest prefix, and an earlier one no
    // longer than the best match so far cannot beat it.
    for (let j = k - 1; j >= 0; j--) {
      const q = requests[j];
      if (q.length <= best) continue;
      const n = Math.min(r.length, q.length);
      let i = 0;
      while (i < n && r[i] === q[i]) i++;
      if (i > best) best = i;
    }
    total.push(r.length);
    cached.push(cachedPart(best));
  }
  return { total, cached };
}

/** Cost of each request under a price model, in uncached-token units. */
export function costs(c: SessionCache, price: PriceModel): number[] {
  return c.total.map((t, i) => c.cached[i] * price.discount + (t - c.cached[i]) * price.writePremium);
}

export function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Share of input tokens read from the cache. */
export function cachedShare(c: SessionCache): number {
  const t = sum(c.total);
  return t ? sum(c.cached) / t : 0;
}
