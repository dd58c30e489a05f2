/**
 * The best any pruning schedule could do on one recorded session, knowing the whole session in
 * advance: the cheapest sequence of cutoffs (rounds 1..c of each request stubbed exactly as
 * pruning stubs them, c never moving back, the newest keepToolRounds rounds always whole), priced
 * by the same prefix-cache model as cache-cost.ts. No rule that decides one request at a time can
 * beat it, so it tells how much of a gap to a target is the rule's fault and how much is not.
 *
 * Dynamic programming over (request, cutoff): a request's cached part is its longest common
 * prefix with the request before it. With cutoffs that never move back, no earlier request shares
 * a longer prefix (an earlier one is shorter and stubs no more), so the previous request is the
 * one to compare with, as simulateCache finds.
 */
import { pruneOldToolOutputs } from '../extension/core/context/prune';
import type { Message } from '../extension/core/conversation/messages';
import { toWireMessages } from '../extension/core/conversation/wire';
import { cachedPart, type PriceModel, type RequestTokenizer } from './cache-cost';

export interface UnprunedSession {
  /** The session's system prompt and tools block (the replay loads no tool, so both stay the same). */
  system: string;
  tools: unknown[];
  /** The stored transcript at the end. */
  transcript: Message[];
  /** How many transcript messages each request carried, in order. */
  carried: number[];
}

const toolRounds = (ms: Message[]) => ms.filter((m) => m.role === 'assistant' && m.toolCalls?.length).length;

/** Token sequences of request k for each cutoff it may take (index c: rounds 1..c stubbed; 0 = none). */
function variants(s: UnprunedSession, k: number, keep: number, tok: RequestTokenizer): number[][] {
  const t = s.transcript.slice(0, s.carried[k]);
  const rounds = toolRounds(t);
  const out: number[][] = [];
  for (let c = 0; c <= Math.max(0, rounds - keep); c++) {
    const ms = c === 0 ? t : pruneOldToolOutputs(t, { enabled: true, keepToolRounds: rounds - c, protectRecentViews: 3 }).messages;
    out.push(tok.tokens({ messages: toWireMessages(s.system, ms), tools: s.tools }));
  }
  return out;
}

function commonPrefix(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** The cheapest schedule's cost, in uncached-token units. */
export function optimumCost(s: UnprunedSession, keep: number, price: PriceModel, tok: RequestTokenizer): number {
  return optimumSchedule(s, keep, price, tok).cost;
}

/** The cheapest schedule: its cost and each request's cutoff. */
export function optimumSchedule(s: UnprunedSession, keep: number, price: PriceModel, tok: RequestTokenizer): { cost: number; cutoffs: number[] } {
  let prev: number[][] = [];
  let best: number[] = [];
  const from: number[][] = [];
  for (let k = 0; k < s.carried.length; k++) {
    const cur = variants(s, k, keep, tok);
    const back: number[] = [];
    const next = cur.map((req, c) => {
      back.push(0);
      if (k === 0) return req.length * price.writePremium;
      let min = Infinity;
      for (let p = 0; p <= c && p < prev.length; p++) {
        const cached = cachedPart(commonPrefix(req, prev[p]));
        const cost = best[p] + cached * price.discount + (req.length - cached) * price.writePremium;
        if (cost < min) {
          min = cost;
          back[c] = p;
        }
      }
      return min;
    });
    from.push(back);
    prev = cur;
    best = next;
  }
  const cost = Math.min(...best);
  const cutoffs: number[] = [];
  for (let k = from.length - 1, c = best.indexOf(cost); k >= 0; k--) {
    cutoffs.unshift(c);
    c = from[k][c];
  }
  return { cost, cutoffs };
}
