import type { Settings } from '../settings/schema';
import { cachePrices } from './cache-prices';
import { listPrice } from './list-prices';
import { roundCost, type RoundCost, type RoundUsage } from './round-cost';

type PriceSettings = Pick<Settings, 'model.name' | 'model.inputPrice' | 'model.outputPrice' | 'model.cacheDiscount' | 'model.cacheWritePremium'>;

/**
 * What `usage` cost at model.name's prices: the one pricing the meter, the budget and its forecast
 * share; undefined when the model has no price or the usage is estimated (counted by the client,
 * caching unknown).
 */
export function usageCost(usage: RoundUsage & { estimated?: boolean }, settings: PriceSettings, leftOutTokens = 0): RoundCost | undefined {
  const price = listPrice(settings['model.name'], settings);
  if (!price || usage.estimated) return undefined;
  return roundCost(usage, price, cachePrices(settings['model.name'], settings), leftOutTokens);
}

/** The meter's cost fields: each round's estimate and running totals per session (what sending everything would have cost beside them). */
export class SessionCosts {
  /** Running totals per session (a slice of the agent's per-session states). */
  constructor(private readonly totals: Map<string, { spent: number; everything: number }> = new Map()) {}

  /** `{ cost }` for the meter message, or nothing when the model's prices are unknown or usage is estimated. */
  add(sessionId: string, usage: RoundUsage & { estimated?: boolean }, settings: Settings, leftOutTokens: number) {
    const c = usageCost(usage, settings, leftOutTokens);
    if (!c) return {};
    const t = this.totals.get(sessionId) ?? { spent: 0, everything: 0 };
    t.spent += c.total;
    t.everything += c.everything;
    this.totals.set(sessionId, t);
    return { cost: { cached: c.cached, uncached: c.uncached, output: c.output, round: c.total, session: t.spent, sessionEverything: t.everything } };
  }
}
