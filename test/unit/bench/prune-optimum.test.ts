import assert from 'node:assert/strict';
import { costs, PRICE_MODELS, RequestTokenizer, simulateCache, sum, type PriceModel } from '../../../bench/cache-cost';
import { optimumSchedule, type UnprunedSession } from '../../../bench/prune-optimum';
import { pruneOldToolOutputs } from '../../../extension/core/context/prune';
import { PruneCache } from '../../../extension/core/context/prune-cache';
import type { Message } from '../../../extension/core/conversation/messages';
import { toWireMessages } from '../../../extension/core/conversation/wire';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'parse', 'token', 'error', 'line', 'value', 'test', 'file', 'return'];

/** Varied text of about `chars` characters (repeated letters would tokenize too compactly to reach the cache minimum). */
function text(seed: number, chars: number): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) s += WORDS[(seed * 31 + i * 7 + ((i * i) % 5)) % WORDS.length] + (i % 9 === 8 ? '\n' : ' ');
  return s;
}

/** A session of `rounds` shell rounds; request k carries the task and rounds 1..k. */
function session(rounds: number): UnprunedSession {
  const transcript: Message[] = [{ role: 'user', content: text(0, 600) }];
  const carried = [1];
  for (let r = 1; r <= rounds; r++) {
    transcript.push({ role: 'assistant', content: `step ${r}`, toolCalls: [{ id: `c${r}`, name: 'shell', arguments: JSON.stringify({ command: `run ${r}` }) }] });
    transcript.push({ role: 'tool', toolCallId: `c${r}`, toolName: 'shell', ok: true, content: text(r, 800 + ((r * 1543) % 2400)) });
    carried.push(transcript.length);
  }
  return { system: `system ${text(99, 2000)}`, tools: [], transcript, carried };
}

const keep = 6;

/** Cost of a request sequence under the prefix-cache ruler itself (any earlier request may hold the prefix). */
function priced(s: UnprunedSession, messages: Message[][], p: PriceModel, tok: RequestTokenizer): number {
  return sum(costs(simulateCache(messages.map((ms) => tok.tokens({ messages: toWireMessages(s.system, ms), tools: s.tools }))), p));
}

/** The requests a cutoff schedule sends (rounds 1..c stubbed as pruning stubs them). */
function scheduled(s: UnprunedSession, cutoffs: number[]): Message[][] {
  return s.carried.map((n, k) => {
    const t = s.transcript.slice(0, n);
    const rounds = k;
    return cutoffs[k] === 0 ? t : pruneOldToolOutputs(t, { enabled: true, keepToolRounds: rounds - cutoffs[k], protectRecentViews: 3 }).messages;
  });
}

/** What PruneCache sends for each request of the session. */
function live(s: UnprunedSession, opts: Parameters<PruneCache['prune']>[2]): Message[][] {
  const cache = new PruneCache();
  return s.carried.map((n) => cache.prune('s', s.transcript.slice(0, n), opts).messages);
}

/** Every cutoff schedule that never moves back and keeps the newest `keep` rounds whole. */
function allSchedules(requests: number): number[][] {
  const out: number[][] = [];
  const walk = (k: number, acc: number[]) => {
    if (k === requests) return void out.push(acc);
    for (let c = acc.length ? acc[acc.length - 1] : 0; c <= Math.max(0, k - keep); c++) walk(k + 1, [...acc, c]);
  };
  walk(0, []);
  return out;
}

describe('bench: the hindsight-optimal pruning schedule', () => {
  const tok = new RequestTokenizer();

  it('equals the cheapest of every schedule, priced by the cache ruler, on a 12-round session under each price model', () => {
    const s = session(12);
    const schedules = allSchedules(s.carried.length);
    assert.equal(schedules.length, 429, "13 requests, cutoffs up to 6");
    for (const p of PRICE_MODELS) {
      const brute = Math.min(...schedules.map((c) => priced(s, scheduled(s, c), p, tok)));
      const best = optimumSchedule(s, keep, p, tok);
      assert.ok(Math.abs(best.cost - brute) < 1e-6, `${p.name}: ${best.cost} vs ${brute}`);
      assert.ok(Math.abs(priced(s, scheduled(s, best.cutoffs), p, tok) - best.cost) < 1e-6, `${p.name}: its own schedule costs what it says`);
    }
  });

  it('without caching is rolling pruning; under caching it is never dearer than rolling, cache-aware or no pruning', () => {
    const s = session(30);
    const none = PRICE_MODELS[0];
    assert.equal(optimumSchedule(s, keep, none, tok).cost, priced(s, live(s, { enabled: true, keepToolRounds: keep, protectRecentViews: 3 }), none, tok));
    for (const p of PRICE_MODELS.slice(1)) {
      const best = optimumSchedule(s, keep, p, tok);
      const base = { enabled: true, keepToolRounds: keep, protectRecentViews: 3 };
      const rolling = priced(s, live(s, base), p, tok);
      const aware = priced(s, live(s, { ...base, strategy: 'cache-aware', prices: { discount: p.discount, writePremium: p.writePremium } }), p, tok);
      const unpruned = priced(s, live(s, { ...base, enabled: false }), p, tok);
      assert.ok(best.cost <= Math.min(rolling, aware, unpruned), `${p.name}: ${best.cost} vs rolling ${rolling}, cache-aware ${aware}, none ${unpruned}`);
      assert.ok(best.cost < unpruned, `${p.name}: on 30 rounds some pruning pays`);
      best.cutoffs.forEach((c, k) => assert.ok(c <= Math.max(0, k - keep) && (k === 0 || c >= best.cutoffs[k - 1]), `${p.name}: cutoff ${c} at request ${k}`));
    }
  });
});
