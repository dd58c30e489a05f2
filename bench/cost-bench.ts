/**
 * Cost under prompt caching (issue: money, not tokens): real agent trajectories and the synthetic
 * 60-round session replayed through the real loop, each request priced by the prefix-cache
 * simulation in cache-cost.ts. Snowpea runs once per price model with the matching
 * `model.cacheDiscount` / `model.cacheWritePremium` (so cache-aware pruning sees the price it is
 * judged by) and once per price model with `agent.pruneStrategy: "rolling"`; the naive baseline runs
 * once and is priced four ways. A fifth row prices the same runs under Anthropic's own cache
 * (anthropic-cache.ts: each request through the real Anthropic translation, cached only at its
 * breakpoints); Snowpea's runs for it are the ones recorded at Claude's prices (10%, writes 125%).
 */
import { okResult, type AnyTool } from '../extension/core/tools/types';
import { createHarness } from '../test/fixtures/agent-harness';
import { cachedShare, costs, PRICE_MODELS, RequestTokenizer, simulateCache, sum, type PriceModel } from './cache-cost';
import { longSessionFiles, longSessionStep } from './scenarios';
import type { Trajectory } from './trajectories/import-swe-agent';
import { trajectorySets } from './trajectories/load';
import { optimumCost, type UnprunedSession } from './prune-optimum';
import { toWireMessages } from '../extension/core/conversation/wire';
import { ANTHROPIC_NATIVE, anthropicCosts, anthropicParams, AnthropicTokenizer, simulateAnthropicCache, type AnthropicRequestTokens } from './anthropic-cache';

export const NAIVE = { 'tools.repeatGuard': false, 'agent.pruneToolOutputs': false, 'tools.deferred': false, 'agent.compactAt': null };

interface Scenario {
  name: string;
  files?: Record<string, string>;
  prompt: string;
  /** The scripted model's reply to request i; `output` is what the replayed tool returns this round. */
  step(i: number): { reply: any; output?: string };
}

function trajectoryScenario(t: Trajectory): Scenario {
  return {
    name: t.name,
    prompt: t.task,
    step: (i) => {
      const s = t.steps[i];
      if (!s) return { reply: { text: 'Done.' } };
      return { reply: { text: s.thought, toolCalls: [{ id: `call_${i}`, name: s.tool, arguments: JSON.stringify(s.args) }] }, output: s.output };
    },
  };
}

const syntheticScenario: Scenario = { name: '60-round synthetic session', files: longSessionFiles(), prompt: 'Find and fix the failing case.', step: (i) => ({ reply: longSessionStep(i) }) };

interface Recorded {
  /** Each request's tokens in provider order. */
  tokens: number[][];
  /** Each request as the Anthropic client would send it: its blocks, breakpoints and token positions. */
  anthropic: AnthropicRequestTokens[];
  /** The session as stored, and what each request carried of it (for the hindsight optimum). */
  session: UnprunedSession;
  /** Compactions during the run (the optimum prunes an uncompacted transcript, so it compares only with runs that made none). */
  compactions: number;
}

/** Runs a scenario and returns the recorded request bodies' token sequences. */
async function record(sc: Scenario, settings: Record<string, unknown>, replay: boolean, tok: Tokenizers): Promise<Recorded> {
  let output = '';
  // Replayed tools keep their real names, schemas and descriptions (the tools block is Snowpea's own) but return the trace's output.
  const wrapTool = replay ? (t: AnyTool): AnyTool => ({ ...t, run: async () => okResult(output) }) : undefined;
  const h = await createHarness({ settings: { 'agent.maxRounds': 500, 'approvals.autoApprove': ['exec', 'write', 'network'], ...settings }, files: sc.files, wrapTool });
  try {
    h.server.setResponder((_b, i) => {
      const s = sc.step(i);
      output = s.output ?? '';
      return s.reply;
    });
    const session = h.agent.newSession();
    await h.agent.runTurn(session, sc.prompt, new AbortController().signal);
    const bodies = h.server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => JSON.parse(r.raw) as { messages: Array<{ role: string; content?: unknown }>; tools?: unknown[] });
    const tokens = bodies.map((b) => tok.prefix.tokens(b));
    const anthropic = bodies.map((b) => tok.anthropic.request(anthropicParams(b)));
    const system = String(bodies[0].messages[0].content);
    return { tokens, anthropic, session: { system, tools: bodies[0].tools ?? [], transcript: [...session.messages], carried: bodies.map((b) => b.messages.length - 1) }, compactions: h.events.filter((e) => e.type === 'compaction').length };
  } finally {
    await h.close();
  }
}

/** The prefix-cache ruler's tokenizer and the Anthropic-native one, shared by every run of the bench. */
interface Tokenizers {
  prefix: RequestTokenizer;
  anthropic: AnthropicTokenizer;
}

export interface Measured {
  cost: number;
  tokens: number;
  /** Share of input tokens read from the cache. */
  cachedShare: number;
  /** Share written to the cache at the premium (Anthropic native only; the prefix ruler charges every uncached token the premium). */
  writtenShare?: number;
}

export interface CostRow {
  scenario: string;
  price: string;
  naive: Measured;
  snowpea: Measured;
  rolling: Measured;
  /**
   * The cheapest any pruning schedule could be knowing the whole session in advance
   * (prune-optimum.ts), with the defaults: what no rule deciding one request at a time can beat.
   * NaN where it is not computed (a live scenario, whose outputs depend on pruning).
   */
  optimum: number;
  /** The same optimum under other conditions (OPTIMUM_VARIANTS): what the targets would need. */
  optimumIf: Record<string, number>;
  /** Cumulative cost per round (the picture). */
  curve: { naive: number[]; snowpea: number[] };
}

/** The optimum rebuilds each request from the stored transcript: it must be the request that went out. */
function checkReconstruction(r: Recorded, tok: Tokenizers): void {
  const s = r.session;
  s.carried.forEach((n, k) => {
    const rebuilt = tok.prefix.tokens({ messages: toWireMessages(s.system, s.transcript.slice(0, n)), tools: s.tools });
    if (rebuilt.length !== r.tokens[k].length || rebuilt.some((t, i) => t !== r.tokens[k][i])) throw new Error(`request ${k} rebuilt from the transcript differs from the one sent`);
  });
}

/** Conditions the optimum is also computed under: smaller windows than the default 6 (agent.keepToolRounds), and no fixed prefix at all. */
export const OPTIMUM_VARIANTS: Array<{ name: string; keep: number; noPrefix?: boolean }> = [
  { name: 'keepToolRounds 4', keep: 4 },
  { name: 'keepToolRounds 3', keep: 3 },
  { name: 'keepToolRounds 2', keep: 2 },
  { name: 'no system prompt or tools, keepToolRounds 6', keep: 6, noPrefix: true },
];

function optimumIf(u: UnprunedSession, p: PriceModel, tok: Tokenizers): Record<string, number> {
  return Object.fromEntries(OPTIMUM_VARIANTS.map((v) => [v.name, optimumCost(v.noPrefix ? { ...u, system: '', tools: [] } : u, v.keep, p, tok.prefix)]));
}

function measured(per: number[], c: { total: number[]; cached: number[] }, written?: number[]): Measured & { curve: number[] } {
  let acc = 0;
  const tokens = sum(c.total);
  return { cost: sum(per), tokens, cachedShare: cachedShare(c), ...(written ? { writtenShare: tokens ? sum(written) / tokens : 0 } : {}), curve: per.map((x) => (acc += x)) };
}

function priced(reqs: number[][], p: PriceModel) {
  const c = simulateCache(reqs);
  return measured(costs(c, p), c);
}

/** The same run priced under Anthropic's breakpoint cache. */
function pricedAnthropic(reqs: AnthropicRequestTokens[]) {
  const c = simulateAnthropicCache(reqs, ANTHROPIC_NATIVE.rules);
  return measured(anthropicCosts(c, ANTHROPIC_NATIVE), c, c.written);
}

function optima(u: UnprunedSession | undefined, keep: number, p: PriceModel, tok: Tokenizers): { optimum: number; optimumIf: Record<string, number> } {
  return u ? { optimum: optimumCost(u, keep, p, tok.prefix), optimumIf: optimumIf(u, p, tok) } : { optimum: NaN, optimumIf: {} };
}

const priceSettings = (p: PriceModel) => ({ 'model.cacheDiscount': p.discount, 'model.cacheWritePremium': p.writePremium });

async function scenarioRows(sc: Scenario, replay: boolean, tok: Tokenizers): Promise<CostRow[]> {
  const naive = await record(sc, NAIVE, replay, tok);
  // Only a replay's transcript is the same whatever pruning does (its outputs come from the trace;
  // live tools answer a re-read by whether the earlier read is still in the request).
  const unpruned = replay ? await record(sc, { 'agent.pruneToolOutputs': false, 'agent.compactAt': null }, replay, tok) : undefined;
  if (unpruned) checkReconstruction(unpruned, tok);
  const keep = 6; // agent.keepToolRounds' default
  const rows: CostRow[] = [];
  // Runs by their settings: the Anthropic row reuses the runs recorded at the same prices.
  const runs = new Map<string, Recorded>();
  const run = async (settings: Record<string, unknown>) => {
    const key = JSON.stringify(settings);
    if (!runs.has(key)) runs.set(key, await record(sc, settings, replay, tok));
    return runs.get(key)!;
  };
  for (const p of PRICE_MODELS) {
    const snow = await run(priceSettings(p));
    const roll = await run({ ...priceSettings(p), 'agent.pruneStrategy': 'rolling' });
    const n = priced(naive.tokens, p);
    const s = priced(snow.tokens, p);
    const r = priced(roll.tokens, p);
    rows.push({ scenario: sc.name, price: p.name, naive: n, snowpea: s, rolling: r, ...optima(unpruned && !snow.compactions ? unpruned.session : undefined, keep, p, tok), curve: { naive: n.curve, snowpea: s.curve } });
  }
  // No hindsight optimum under this cache: prune-optimum.ts prices by the prefix ruler.
  const a = ANTHROPIC_NATIVE;
  const n = pricedAnthropic(naive.anthropic);
  const s = pricedAnthropic((await run(priceSettings(a))).anthropic);
  const r = pricedAnthropic((await run({ ...priceSettings(a), 'agent.pruneStrategy': 'rolling' })).anthropic);
  rows.push({ scenario: sc.name, price: a.name, naive: n, snowpea: s, rolling: r, optimum: NaN, optimumIf: {}, curve: { naive: n.curve, snowpea: s.curve } });
  return rows;
}

export async function costBench(): Promise<{ trajectories: CostRow[]; sets: Array<{ name: string; count: number; rows: CostRow[] }>; synthetic: CostRow[] }> {
  const tok: Tokenizers = { prefix: new RequestTokenizer(), anthropic: new AnthropicTokenizer() };
  const sets: Array<{ name: string; count: number; rows: CostRow[] }> = [];
  for (const set of trajectorySets()) {
    const rows: CostRow[] = [];
    for (const t of set.trajectories) rows.push(...(await scenarioRows(trajectoryScenario(t), true, tok)));
    sets.push({ name: set.name, count: set.trajectories.length, rows });
  }
  const synthetic = await scenarioRows(syntheticScenario, false, tok);
  return { trajectories: sets.flatMap((s) => s.rows), sets, synthetic };
}

/** The price models of the table, in order: the four prefix-cache ones, then Anthropic native. */
export const COST_ROWS: PriceModel[] = [...PRICE_MODELS, ANTHROPIC_NATIVE];

/** Per price model: the cost ratio over all trajectories together, the worst single one, and the cached (and, for Anthropic native, written) shares. */
export function summarize(rows: CostRow[]): Array<{ price: string; ratio: number; rollingRatio: number; optimumRatio: number; optimumIf: Record<string, number>; worst: number; worstName: string; cachedSnowpea: number; cachedNaive: number; writtenSnowpea?: number; writtenNaive?: number }> {
  return COST_ROWS.filter((p) => rows.some((r) => r.price === p.name)).map((p) => {
    const rs = rows.filter((r) => r.price === p.name);
    const naiveCost = sum(rs.map((r) => r.naive.cost));
    const ratio = sum(rs.map((r) => r.snowpea.cost)) / naiveCost;
    const rollingRatio = sum(rs.map((r) => r.rolling.cost)) / naiveCost;
    const optimumRatio = sum(rs.map((r) => r.optimum)) / naiveCost;
    const optimumIf = Object.fromEntries(OPTIMUM_VARIANTS.map((v) => [v.name, sum(rs.map((r) => r.optimumIf[v.name] ?? NaN)) / naiveCost]));
    const worstRow = rs.reduce((a, b) => (b.snowpea.cost / b.naive.cost > a.snowpea.cost / a.naive.cost ? b : a));
    const tokens = (k: 'snowpea' | 'naive') => sum(rs.map((r) => r[k].tokens));
    const cached = (k: 'snowpea' | 'naive') => sum(rs.map((r) => r[k].cachedShare * r[k].tokens)) / tokens(k);
    const written = (k: 'snowpea' | 'naive') => (rs.every((r) => r[k].writtenShare !== undefined) ? { [k === 'snowpea' ? 'writtenSnowpea' : 'writtenNaive']: sum(rs.map((r) => r[k].writtenShare! * r[k].tokens)) / tokens(k) } : {});
    return { price: p.name, ratio, rollingRatio, optimumRatio, optimumIf, worst: worstRow.snowpea.cost / worstRow.naive.cost, worstName: worstRow.scenario, cachedSnowpea: cached('snowpea'), cachedNaive: cached('naive'), ...written('snowpea'), ...written('naive') };
  });
}

export function formatCost(title: string, rows: CostRow[]): string {
  const w = Math.max(...COST_ROWS.map((p) => p.name.length));
  const lines = [title, `${'price model'.padEnd(w)} snowpea/naive  (rolling)  optimum  worst single        cached: snowpea  naive`];
  const notes: string[] = [];
  // Plain input: what is neither read nor written (float noise below zero shown as 0).
  const plain = (cached: number, written: number) => Math.max(0, (1 - cached - written) * 100).toFixed(0);
  for (const s of summarize(rows)) {
    if (s.writtenSnowpea !== undefined && s.writtenNaive !== undefined) notes.push(`${s.price}: written to the cache ${(s.writtenSnowpea * 100).toFixed(0)}% / ${(s.writtenNaive * 100).toFixed(0)}%, plain ${plain(s.cachedSnowpea, s.writtenSnowpea)}% / ${plain(s.cachedNaive, s.writtenNaive)}% (Snowpea / naive); no optimum under this cache`);
    lines.push(`${s.price.padEnd(w)} ${s.ratio.toFixed(2).padStart(13)}  ${`(${s.rollingRatio.toFixed(2)})`.padStart(9)}  ${(Number.isNaN(s.optimumRatio) ? '-' : s.optimumRatio.toFixed(2)).padStart(7)}  ${`${s.worst.toFixed(2)} ${s.worstName.slice(0, 12)}`.padEnd(18)}  ${(s.cachedSnowpea * 100).toFixed(0).padStart(15)}%  ${(s.cachedNaive * 100).toFixed(0).padStart(4)}%`);
  }
  return [...lines, ...notes].join('\n');
}

/** The issue's targets for the real trajectories, per price model. */
export const TARGETS: Record<string, number> = { 'no caching': 0.5, 'cached at 50%': 0.5, 'cached at 25%': 0.6, 'cached at 10%, writes at 125%': 0.7 };

/** The hindsight optimum with the defaults and under each variant, beside the targets: what meeting them would take. */
export function formatNeeds(rows: CostRow[]): string {
  const sums = summarize(rows);
  const cols = ['defaults', ...OPTIMUM_VARIANTS.map((v) => v.name)];
  const lines = ['Best any pruning schedule could do knowing each session in advance (ratio to naive), and the target:'];
  for (const s of sums) {
    if (!(s.price in TARGETS)) continue;
    const vals = [s.optimumRatio, ...OPTIMUM_VARIANTS.map((v) => s.optimumIf[v.name])];
    lines.push(`${s.price.padEnd(32)} target ${TARGETS[s.price].toFixed(2)}  ` + vals.map((x, i) => `${cols[i]} ${x.toFixed(2)}`).join('  '));
  }
  return lines.join('\n');
}

if (require.main === module) {
  void costBench().then((r) => {
    for (const s of r.sets) console.log(formatCost(`${s.name} (${s.count}):`, s.rows) + '\n');
    console.log(formatCost(`All ${r.sets.reduce((n, s) => n + s.count, 0)} real trajectories:`, r.trajectories));
    console.log('\n' + formatNeeds(r.trajectories));
    console.log(formatCost('\n60-round synthetic session:', r.synthetic));
    process.exit(0);
  });
}
