/**
 * What one round cost, estimated from the provider's usage and the model's prices: cached input at
 * the cache discount, output at its own price, and uncached input: when the provider says how much
 * of it was written into its cache (Anthropic's cache_creation_input_tokens), those tokens at the
 * write premium and the rest at the plain price; when it does not, all of it at the write premium
 * (1 where writes cost nothing extra). "Everything" is the same round had the request also carried what
 * pruning and deferral left out, priced with this round's cached share.
 */
import type { CachePrices } from './cache-prices';
import type { ListPrice } from './list-prices';

export interface RoundUsage {
  promptTokens: number;
  cachedTokens: number;
  /** Of promptTokens, those written into the provider's cache (absent: unknown). */
  cacheWriteTokens?: number;
  completionTokens?: number;
}

export interface RoundCost {
  /** USD: cached input, uncached input, output, and their sum. */
  cached: number;
  uncached: number;
  output: number;
  total: number;
  /** USD the round would have cost sending every pruned output and deferred schema too. */
  everything: number;
}

export function roundCost(u: RoundUsage, price: ListPrice, cache: Pick<CachePrices, 'discount' | 'writePremium'>, leftOutTokens: number): RoundCost {
  const perToken = price.input / 1e6;
  const cachedTokens = Math.min(u.cachedTokens, u.promptTokens);
  const cached = cachedTokens * perToken * cache.discount;
  const uncachedTokens = u.promptTokens - cachedTokens;
  // Known writes at the premium, the other uncached tokens at 1; unknown: every uncached token at the premium.
  const written = typeof u.cacheWriteTokens === 'number' ? Math.min(Math.max(0, u.cacheWriteTokens), uncachedTokens) : uncachedTokens;
  const uncachedRate = uncachedTokens > 0 ? (written * cache.writePremium + (uncachedTokens - written)) / uncachedTokens : cache.writePremium;
  const uncached = uncachedTokens * perToken * uncachedRate;
  const output = (u.completionTokens ?? 0) * (price.output / 1e6);
  const total = cached + uncached + output;
  const share = u.promptTokens > 0 ? cachedTokens / u.promptTokens : 0;
  const extra = Math.max(0, leftOutTokens) * perToken * (share * cache.discount + (1 - share) * uncachedRate);
  return { cached, uncached, output, total, everything: total + extra };
}
