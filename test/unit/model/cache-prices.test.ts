import assert from 'node:assert/strict';
import { cachePrices } from '../../../extension/core/model/cache-prices';
import { costs, simulateCache } from '../../../bench/cache-cost';

describe('cache prices and the prefix-cache ruler', () => {
  it('knows the cached-input price of each family, through gateways too; settings override; unknown models are uncached', () => {
    assert.deepEqual(cachePrices('gpt-4.1-mini'), { discount: 0.25, writePremium: 1, known: true });
    assert.equal(cachePrices('gpt-4o').discount, 0.5);
    assert.equal(cachePrices('gpt-5-codex').discount, 0.1);
    assert.deepEqual(cachePrices('openrouter/anthropic/claude-sonnet-4.5'), { discount: 0.1, writePremium: 1.25, known: true });
    assert.equal(cachePrices('deepseek-chat').discount, 0.1);
    assert.deepEqual(cachePrices('my-local-llama'), { discount: 1, writePremium: 1, known: false });
    assert.deepEqual(cachePrices('my-local-llama', { 'model.cacheDiscount': 0.2, 'model.cacheWritePremium': null }), { discount: 0.2, writePremium: 1, known: true });
  });

  it('caches the longest common prefix with an earlier request, from 1,024 tokens in steps of 128', () => {
    const a = Array.from({ length: 3000 }, (_, i) => i);
    const b = [...a.slice(0, 2000), ...Array.from({ length: 500 }, () => -1)];
    const small = a.slice(0, 900);
    const c = simulateCache([a, b, small]);
    assert.deepEqual(c.cached, [0, 1920, 0], 'below 1,024 tokens nothing is cached');
    assert.deepEqual(costs(c, { name: 't', discount: 0.1, writePremium: 1.25 }), [3000 * 1.25, 1920 * 0.1 + 580 * 1.25, 900 * 1.25]);
  });
});
