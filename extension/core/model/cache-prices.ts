/**
 * What a provider charges for its prompt cache, relative to uncached input (= 1): the price of a
 * cached input token (`discount`) and of an input token written into the cache (`writePremium`).
 * Cache-aware pruning and the cost meter weigh tokens with these. A built-in table by model family
 * (public list prices as of late 2026), overridden by `model.cacheDiscount` / `model.cacheWritePremium`;
 * an unknown model is priced as uncached (discount 1, premium 1), so nothing is traded for a cache
 * that may not exist.
 */
import type { Settings } from '../settings/schema';
import { bareModelName } from './capabilities';

export interface CachePrices {
  /** Cached input price as a fraction of the uncached price (1: no caching). */
  discount: number;
  /** Cache-write price as a multiple of the uncached price (1: writes cost nothing extra). */
  writePremium: number;
  /** The table knew the model family (or a setting gave the prices). */
  known: boolean;
}

const p = (pattern: RegExp, discount: number, writePremium = 1) => ({ pattern, discount, writePremium });

/** First match wins; names are matched lowercased without a provider prefix (`openrouter/anthropic/claude-…` → `claude-…`). */
const TABLE = [
  // OpenAI: automatic prefix caching, no write premium.
  p(/^gpt-5/, 0.1),
  p(/^gpt-4\.1/, 0.25),
  p(/^o(3|4-mini)/, 0.25),
  p(/^(gpt-4o|o1)/, 0.5),
  // Anthropic (explicit cache_control breakpoints): reads 10%, 5-minute writes 125%.
  p(/^claude-/, 0.1, 1.25),
  // DeepSeek (automatic disk cache) and Google (implicit caching on 2.5 and later).
  p(/^deepseek/, 0.1),
  p(/^gemini-(2\.5|[3-9])/, 0.25),
  // Grok, Qwen and Kimi through their own APIs or gateways that pass cached tokens through.
  p(/^grok-/, 0.25),
  p(/^(qwen3|kimi-k2)/, 0.2),
];

export function cachePrices(modelName: string, settings?: Pick<Settings, 'model.cacheDiscount' | 'model.cacheWritePremium'>): CachePrices {
  const bare = bareModelName(modelName);
  const hit = TABLE.find((e) => e.pattern.test(bare));
  const discount = settings?.['model.cacheDiscount'] ?? hit?.discount ?? 1;
  const writePremium = settings?.['model.cacheWritePremium'] ?? hit?.writePremium ?? 1;
  return { discount, writePremium, known: !!hit || settings?.['model.cacheDiscount'] != null };
}
