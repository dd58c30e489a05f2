/**
 * What one round cost, estimated from the provider's usage and the model's prices: cached input at
 * the cache discount, uncached input at the write premium (1 where writes cost nothing extra),
 * output at its own price. "Everything" is the same round had the request also carried what
 * pruning and deferral left out, priced with this round's cached share.
 */
import type { CachePrices } from './cache-prices';
import type { ListPrice } from './list-prices';

export interface RoundUsage {
  promptTokens: number;
  cachedTokens: number;
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
  const uncached = (u.promptTokens - cachedTokens) * perToken * cache.writePremium;
  const output = (u.completionTokens ?? 0) * (price.output / 1e6);
  const total = cached + uncached + output;
  const share = u.promptTokens > 0 ? cachedTokens / u.promptTokens : 0;
  const extra = Math.max(0, leftOutTokens) * perToken * (share * cache.discount + (1 - share) * cache.writePremium);
  return { cached, uncached, output, total, everything: total + extra };
}
