/**
 * The forecast behind the meter's expected cost and the budget (core/agent/budget/forecast.ts),
 * against what a caching provider really reports: the scripted server answers with the usage of a
 * prefix cache (test/fixtures/prefix-cache.ts), and each `cost.next` told before a request is held
 * to the usage recorded for it.
 */
import assert from 'node:assert/strict';
import { CostForecast } from '../../../extension/core/agent/budget/forecast';
import type { AgentEvent, CostNextEvent } from '../../../extension/core/conversation/events';
import { usageCost } from '../../../extension/core/model/session-costs';
import type { WireMessage, WireTool } from '../../../extension/core/model/types';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { prefixCache, type PrefixCache } from '../../fixtures/prefix-cache';
import type { Step } from '../../fixtures/scripted-server';

/** Five files of about 3 KB: each round reads one, so each request grows by ~750 tokens. */
const FILES = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`src/m${i}.ts`, Array.from({ length: 60 }, (_, j) => `export const v${i}_${j} = ${i * 1000 + j}; // line ${j}`).join('\n')]));

/** Rounds 1-5 read a file each, round 6 answers. */
function script(): Step[] {
  return [...Object.keys(FILES).map((p) => ({ toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: p }) }] })), { text: 'Read them all.' }];
}



function costEvents(events: AgentEvent[]): CostNextEvent[] {
  return events.filter((e): e is CostNextEvent => e.type === 'cost.next');
}

/** |a - b| <= tolerance, said with both numbers. */
function near(a: number, b: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(a - b) <= tolerance, `${what}: expected ${a}, recorded ${b} (tolerance ${tolerance})`);
}

async function readFiles(h: Harness, cache: PrefixCache): Promise<{ told: CostNextEvent[]; meters: Array<Extract<AgentEvent, { type: 'meter' }>> }> {
  const steps = script();
  h.server.setResponder((body, i) => ({ ...steps[i], usage: cache.usage(body) }));
  const r = await h.agent.runTurn(h.agent.newSession(), 'read the five modules', new AbortController().signal);
  assert.equal(r.reason, 'done');
  const told = costEvents(h.events);
  assert.deepEqual(
    told.map((e) => e.round),
    [1, 2, 3, 4, 5, 6],
    'one expectation before each request, numbered like its round',
  );
  return { told, meters: h.events.filter((e): e is Extract<AgentEvent, { type: 'meter' }> => e.type === 'meter') };
}

describe('budget: the forecast of the next request (expected tokens, cache hit and cost)', function () {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('expects the prompt and the cache hit a prefix-caching provider then reports, and prices them like the meter', async () => {
    h = await createHarness({ files: FILES, settings: { 'model.name': 'gpt-4o' } });
    const cache = prefixCache();
    const { told, meters } = await readFiles(h, cache);
    const actual = cache.reported;
    // Nothing is cached before the first request; its size errs high until the provider has counted one.
    assert.equal(told[0].cachedTokens, 0);
    assert.equal(actual[0].cached_tokens, 0);
    assert.ok(told[0].promptTokens >= actual[0].prompt_tokens, 'the first estimate errs high');
    for (let i = 1; i < told.length; i++) {
      const e = told[i];
      const a = actual[i];
      near(e.promptTokens, a.prompt_tokens, Math.ceil(a.prompt_tokens * 0.02), `round ${e.round} prompt tokens`);
      // The provider caches whole 128-token steps of the shared prefix: the expectation is within a step or 5%.
      near(e.cachedTokens, a.cached_tokens, Math.max(128, Math.ceil(a.prompt_tokens * 0.05)), `round ${e.round} cached tokens`);
      assert.ok(a.cached_tokens > a.prompt_tokens / 2, 'the scenario caches most of each request');
      // The output expected is what the rounds so far averaged (the fixture reports 20 each).
      assert.equal(e.outputTokens, 20);
      // Priced by the meter's own pricing, and close to what the meter then measured.
      const priced = usageCost({ promptTokens: e.promptTokens, cachedTokens: e.cachedTokens, completionTokens: e.outputTokens }, h.settings);
      assert.equal(e.cost, priced!.total);
      const measured = meters.find((m) => m.round === e.round)!.cost!.round;
      near(e.cost, measured, measured * 0.05, `round ${e.round} cost`);
    }
  });

  it('learns from the cache reads that a provider caches nothing, or that an unknown model\'s provider does', async () => {
    // gpt-4o's family caches (the price table), so the second request expects a hit; the provider reads none, so later ones expect none.
    h = await createHarness({ files: FILES, settings: { 'model.name': 'gpt-4o' } });
    const none = await readFiles(h, prefixCache({ caches: false }));
    assert.ok(none.told[1].cachedTokens > 1024, 'a family that caches: a hit expected at first');
    for (const e of none.told.slice(2)) assert.equal(e.cachedTokens, 0, `round ${e.round}: the provider showed it reads nothing`);
    await h.close();

    // A model the table does not know: no hit expected until the provider reports one, then the hit is expected.
    h = await createHarness({ files: FILES, settings: { 'model.name': 'my-local-model', 'model.inputPrice': 0.5, 'model.outputPrice': 1 } });
    const cache = prefixCache();
    const learned = await readFiles(h, cache);
    assert.equal(learned.told[1].cachedTokens, 0, 'nothing known about its cache yet');
    assert.ok(cache.reported[1].cached_tokens > 0);
    for (let i = 2; i < learned.told.length; i++) near(learned.told[i].cachedTokens, cache.reported[i].cached_tokens, Math.max(128, cache.reported[i].prompt_tokens * 0.05), `round ${i + 1} cached tokens`);
  });

  it('expects no hit once the cache has had time to expire, and only the prefix a changed request still shares', () => {
    let now = 0;
    const forecast = new CostForecast({ tokens: { estimate: (_id, size) => Math.ceil(size.chars / 4) + size.images * 1000 }, cacheKnown: () => true, now: () => now });
    const tools: WireTool[] = [{ type: 'function', function: { name: 'read_file', description: 'Read a file. '.repeat(200), parameters: { type: 'object' } } }];
    const system: WireMessage = { role: 'system', content: 'You are Snowpea. '.repeat(400) };
    const first: WireMessage[] = [system, { role: 'user', content: 'first question' }];
    forecast.expect('s', first, tools);
    forecast.observe('s', { promptTokens: 3000, cachedTokens: 0, completionTokens: 50 });
    const second: WireMessage[] = [...first, { role: 'assistant', content: 'an answer' }, { role: 'user', content: 'second question' }];
    now = 60_000;
    const warm = forecast.expect('s', second, tools);
    assert.ok(warm.cachedTokens > 2000 && warm.cachedTokens === warm.sharedTokens, 'a minute later: the whole shared prefix from the cache');
    assert.equal(warm.outputTokens, 50);
    forecast.observe('s', { promptTokens: 3050, cachedTokens: warm.sharedTokens, completionTokens: 10 });
    now += 6 * 60_000;
    const cold = forecast.expect('s', [...second, { role: 'user', content: 'third' }], tools);
    assert.equal(cold.cachedTokens, 0, 'six idle minutes: the cache has expired');
    assert.ok(cold.sharedTokens > 2000);
    // The cold request read nothing, as expected; that says nothing about the provider: the next, warm one expects its hit.
    forecast.observe('s', { promptTokens: 3060, cachedTokens: 0, completionTokens: 10 });
    now += 1000;
    const third: WireMessage[] = [...second, { role: 'user', content: 'third' }];
    const rewarmed = forecast.expect('s', [...third, { role: 'assistant', content: 'ok' }], tools);
    assert.ok(rewarmed.cachedTokens > 2000 && rewarmed.cachedTokens === rewarmed.sharedTokens, 'warm again');
    forecast.observe('s', { promptTokens: 3070, cachedTokens: rewarmed.sharedTokens, completionTokens: 10 });
    now += 1000;
    // A new system prompt (another mode, say): only the tools block is still shared.
    const changed = forecast.expect('s', [{ role: 'system', content: 'You plan. '.repeat(700) }, ...second.slice(1)], tools);
    assert.ok(changed.sharedTokens < JSON.stringify(tools).length / 4 + 10, `only the tools block is shared (${changed.sharedTokens} tokens)`);
  });

  it('reliability N15: a large part (a 1 MB write_file call) is remembered by its hash only, and still counts as shared while it is unchanged', () => {
    const forecast = new CostForecast({ tokens: { estimate: (_id, size) => Math.ceil(size.chars / 4) }, cacheKnown: () => true, now: () => 0 });
    const big = JSON.stringify({ path: 'big.txt', content: 'x'.repeat(1024 * 1024) });
    const call: WireMessage = { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'write_file', arguments: big } }] };
    const first: WireMessage[] = [{ role: 'user', content: 'write it' }, call, { role: 'tool', tool_call_id: 'c1', content: 'ok' }];
    forecast.expect('s', first, []);
    forecast.observe('s', { promptTokens: 262_200, cachedTokens: 0, completionTokens: 5 });
    const held = JSON.stringify([...(forecast as unknown as { last: Map<string, unknown> }).last.values()]);
    assert.ok(held.length < 10_000, `the forecast keeps ${held.length} chars of the last request`);
    const next = forecast.expect('s', [...first, { role: 'assistant', content: 'done' }, { role: 'user', content: 'thanks' }], []);
    assert.ok(next.sharedTokens > 262_000, `the unchanged 1 MB call is shared (${next.sharedTokens} tokens)`);
  });
});
