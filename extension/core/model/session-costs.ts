import type { Settings } from '../settings/schema';
import { cachePrices } from './cache-prices';
import { listPrice } from './list-prices';
import { roundCost, type RoundUsage } from './round-cost';

/** The meter's cost fields: each round's estimate and running totals per session (what sending everything would have cost beside them). */
export class SessionCosts {
  private readonly totals = new Map<string, { spent: number; everything: number }>();

  /** `{ cost }` for the meter message, or nothing when the model's prices are unknown or usage is estimated. */
  add(sessionId: string, usage: RoundUsage & { estimated?: boolean }, settings: Settings, leftOutTokens: number) {
    const price = listPrice(settings['model.name'], settings);
    if (!price || usage.estimated) return {};
    const c = roundCost(usage, price, cachePrices(settings['model.name'], settings), leftOutTokens);
    const t = this.totals.get(sessionId) ?? { spent: 0, everything: 0 };
    t.spent += c.total;
    t.everything += c.everything;
    this.totals.set(sessionId, t);
    return { cost: { cached: c.cached, uncached: c.uncached, output: c.output, round: c.total, session: t.spent, sessionEverything: t.everything } };
  }
}
