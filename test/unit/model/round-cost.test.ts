import assert from 'node:assert/strict';
import { listPrice } from '../../../extension/core/model/list-prices';
import { roundCost } from '../../../extension/core/model/round-cost';
import { SessionCosts } from '../../../extension/core/model/session-costs';
import { defaultSettings } from '../../../extension/core/settings/schema';

describe('cost estimate for the context meter', () => {
  it('prices by family, settings override, unknown models get none', () => {
    assert.deepEqual(listPrice('gpt-4.1-mini'), { input: 0.4, output: 1.6 });
    assert.deepEqual(listPrice('openrouter/anthropic/claude-sonnet-4.5'), { input: 3, output: 15 });
    assert.equal(listPrice('my-local-model'), undefined);
    assert.deepEqual(listPrice('my-local-model', { 'model.inputPrice': 0.2, 'model.outputPrice': null }), { input: 0.2, output: 0 });
  });

  it('prices cached input at the discount, uncached at the write premium, and what was left out at the round\'s cached share', () => {
    const c = roundCost({ promptTokens: 1_000_000, cachedTokens: 750_000, completionTokens: 100_000 }, { input: 3, output: 15 }, { discount: 0.1, writePremium: 1.25 }, 400_000);
    assert.equal(c.cached.toFixed(4), (0.75 * 3 * 0.1).toFixed(4));
    assert.equal(c.uncached.toFixed(4), (0.25 * 3 * 1.25).toFixed(4));
    assert.equal(c.output.toFixed(4), '1.5000');
    assert.equal((c.everything - c.total).toFixed(4), (0.4 * 3 * (0.75 * 0.1 + 0.25 * 1.25)).toFixed(4));
  });

  it('when the provider says how much it wrote into its cache (Anthropic), only those tokens pay the write premium; the other uncached ones pay 1x', () => {
    // Anthropic usage: 6 plain input, 3,337 written into the cache, 6,289 read from it.
    const u = { promptTokens: 6 + 3337 + 6289, cachedTokens: 6289, cacheWriteTokens: 3337, completionTokens: 198 };
    const c = roundCost(u, { input: 3, output: 15 }, { discount: 0.1, writePremium: 1.25 }, 0);
    assert.equal(c.cached.toFixed(8), ((6289 * 3 * 0.1) / 1e6).toFixed(8));
    assert.equal(c.uncached.toFixed(8), ((3337 * 3 * 1.25 + 6 * 3) / 1e6).toFixed(8));
    // Nothing written (a full cache hit plus a short new message): the uncached tail at the plain price.
    const hit = roundCost({ promptTokens: 10_000, cachedTokens: 9_000, cacheWriteTokens: 0 }, { input: 3, output: 15 }, { discount: 0.1, writePremium: 1.25 }, 0);
    assert.equal(hit.uncached.toFixed(8), ((1_000 * 3) / 1e6).toFixed(8));
  });

  it('keeps a running total per session, and gives nothing for estimated usage or unknown prices', () => {
    const costs = new SessionCosts();
    const s = { ...defaultSettings(), 'model.name': 'gpt-4.1-mini' };
    const a = costs.add('s1', { promptTokens: 10_000, cachedTokens: 0, completionTokens: 100 }, s, 0);
    const b = costs.add('s1', { promptTokens: 10_000, cachedTokens: 8_000, completionTokens: 100 }, s, 5_000);
    assert.ok(a.cost && b.cost);
    assert.equal(b.cost.session.toFixed(6), (a.cost.round + b.cost.round).toFixed(6));
    assert.ok(b.cost.sessionEverything > b.cost.session);
    assert.deepEqual(costs.add('s1', { promptTokens: 1, cachedTokens: 0, estimated: true }, s, 0), {});
    assert.deepEqual(costs.add('s2', { promptTokens: 1, cachedTokens: 0 }, { ...s, 'model.name': 'local' }, 0), {});
  });
});
