/**
 * The long session (issue 20): 200 rounds whose tool outputs are the real ones of the SWE-agent
 * trajectories (cycled), on a model with a 32k window. Snowpea compacts when a request nears
 * agent.compactAt of the window; the naive baseline (no pruning, no deferral, no compaction) sends
 * everything and would fail at the window: the round where it would is reported, and its cost is
 * what it would have cost had the window been unlimited. Summary requests are recorded like any
 * other request, so the deliberate cache miss of each compaction is in the price.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { okResult, type AnyTool } from '../extension/core/tools/types';
import { createHarness } from '../test/fixtures/agent-harness';
import { cachedShare, costs, PRICE_MODELS, RequestTokenizer, simulateCache, sum } from './cache-cost';
import { NAIVE } from './cost-bench';
import type { Trajectory } from './trajectories/import-swe-agent';

export const LONG_WINDOW = 32_000;
export const LONG_ROUNDS = 200;
const COMPACTION_HEAD = 'Context compaction:';

interface Recorded {
  tokens: number[][];
  /** Indexes of the summary requests. */
  summaries: number[];
}

function isSummary(body: any): boolean {
  const last = body.messages.at(-1);
  return last?.role === 'user' && typeof last.content === 'string' && last.content.startsWith(COMPACTION_HEAD);
}

/** A summary of the length models write for such a request (about 500 tokens). */
function summaryText(n: number): string {
  const files = Array.from({ length: 12 }, (_, i) => `- src/module${(n + i) % 40}.py: read; the fix under way touches the parser's error path (line ${100 + i * 7})`);
  return ['## Task', 'Fix the failing case the issue describes; keep the public API.', '## Decisions', '- The bug is in the input parsing, not the caller.', '## Files', ...files, '## Open problems', '- test_parse_edge still fails with IndexError.', '## Next', '- Edit the parser and rerun the tests.'].join('\n');
}

async function record(steps: Trajectory['steps'], settings: Record<string, unknown>, tok: RequestTokenizer): Promise<Recorded> {
  let output = '';
  const wrapTool = (t: AnyTool): AnyTool => ({ ...t, run: async () => okResult(output) });
  const h = await createHarness({
    settings: { 'agent.maxRounds': LONG_ROUNDS + 10, 'approvals.autoApprove': ['exec', 'write', 'network'], 'model.contextWindow': LONG_WINDOW, ...settings },
    wrapTool,
  });
  try {
    let work = 0;
    let summaries = 0;
    h.server.setResponder((body) => {
      if (isSummary(body)) return { text: summaryText(++summaries) };
      const i = work++;
      if (i >= LONG_ROUNDS) return { text: 'Done.' };
      const s = steps[i % steps.length];
      output = s.output;
      return { text: s.thought, toolCalls: [{ id: `call_${i}`, name: s.tool, arguments: JSON.stringify(s.args) }] };
    });
    await h.agent.runTurn(h.agent.newSession(), 'Work through the repository issue by issue until each is fixed.', new AbortController().signal);
    const bodies = h.server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => JSON.parse(r.raw));
    return { tokens: bodies.map((b) => tok.tokens(b)), summaries: bodies.flatMap((b, i) => (isSummary(b) ? [i] : [])) };
  } finally {
    await h.close();
  }
}

export interface LongSessionReport {
  rounds: number;
  window: number;
  snowpea: { maxTokens: number; compactions: number; tokensByQuarter: number[] };
  naive: { maxTokens: number; failsAtRound: number | null; tokensByQuarter: number[] };
  /** Snowpea's cost over the naive baseline's (had its window been unlimited), per price model, summaries included. */
  prices: Array<{ price: string; ratio: number; cachedSnowpea: number; cachedNaive: number }>;
}

/** Largest request of each quarter of the session's work requests (bounded for Snowpea, growing for naive). */
function quarters(tokens: number[][], skip: number[]): number[] {
  const work = tokens.filter((_, i) => !skip.includes(i)).map((t) => t.length);
  const q = Math.ceil(work.length / 4);
  return [0, 1, 2, 3].map((k) => Math.max(0, ...work.slice(k * q, (k + 1) * q)));
}

export async function longSessionBench(): Promise<LongSessionReport> {
  const trajs = JSON.parse(fs.readFileSync(path.join(__dirname, 'trajectories', 'swe-agent.json'), 'utf8')) as Trajectory[];
  const steps = trajs.flatMap((t) => t.steps);
  const tok = new RequestTokenizer();
  const naive = await record(steps, NAIVE, tok);
  const naiveCache = simulateCache(naive.tokens);
  const fails = naive.tokens.findIndex((t) => t.length > LONG_WINDOW);
  const prices = [];
  let snow: Recorded | undefined;
  for (const p of PRICE_MODELS) {
    snow = await record(steps, { 'model.cacheDiscount': p.discount, 'model.cacheWritePremium': p.writePremium }, tok);
    const c = simulateCache(snow.tokens);
    prices.push({ price: p.name, ratio: sum(costs(c, p)) / sum(costs(naiveCache, p)), cachedSnowpea: cachedShare(c), cachedNaive: cachedShare(naiveCache) });
  }
  return {
    rounds: LONG_ROUNDS,
    window: LONG_WINDOW,
    snowpea: { maxTokens: Math.max(...snow!.tokens.map((t) => t.length)), compactions: snow!.summaries.length, tokensByQuarter: quarters(snow!.tokens, snow!.summaries) },
    naive: { maxTokens: Math.max(...naive.tokens.map((t) => t.length)), failsAtRound: fails < 0 ? null : fails + 1, tokensByQuarter: quarters(naive.tokens, []) },
    prices,
  };
}

export function formatLongSession(r: LongSessionReport): string {
  const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
  return [
    `Long session: ${r.rounds} rounds of real SWE-agent tool outputs on a ${k(r.window)}-token window (o200k tokens):`,
    `  snowpea: largest request ${k(r.snowpea.maxTokens)}, ${r.snowpea.compactions} compactions; largest request by quarter ${r.snowpea.tokensByQuarter.map(k).join(' / ')}`,
    `  naive:   largest request ${k(r.naive.maxTokens)}; ${r.naive.failsAtRound ? `passes the window at request ${r.naive.failsAtRound}` : 'never passes the window'}; by quarter ${r.naive.tokensByQuarter.map(k).join(' / ')}`,
    ...r.prices.map((p) => `  ${p.price.padEnd(32)} cost ratio ${p.ratio.toFixed(2)} (cached share ${(p.cachedSnowpea * 100).toFixed(0)}% vs ${(p.cachedNaive * 100).toFixed(0)}%; naive priced as if its window were unlimited)`),
  ].join('\n');
}
