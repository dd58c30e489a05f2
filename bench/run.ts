/**
 * `npm run bench`: Snowpea's context-budget mechanisms against the naive baseline (all tools
 * eager, no pruning, no repeat guard), measured in the same run on the same scripted sessions
 * through the real loop and the real openai client against the scripted server.
 * Prints a table and writes bench/results/latest.json. Reports, never asserts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHarness } from '../test/fixtures/agent-harness';
import { deferredSessionStep, delegationFiles, longSessionFiles, longSessionStep, manyDeferredTools } from './scenarios';
import { median, percentile, requestTokens } from './tokens';

// The one naive baseline (cost-bench.ts): no guard, no pruning, no deferral, and no compaction,
// which the copy that stood here had missed, so the naive side of these rows was being compacted.
import { NAIVE } from './cost-bench';

interface SessionFigures {
  rounds: number;
  tokensPerRound: number[];
  totalTokens: number;
  firstRequest: { systemPlusTools: number; tools: number };
  /** Rounds whose tool set did not change: share with byte-identical tools block and system prompt. */
  identicalShare: number;
  overheadMs: { median: number; p95: number };
  commitWaitMs: { median: number; p95: number };
}

/** Tokens of a delegated explore child's first request, under agents.childContext lean or full. */
async function childFirstRequest(mode: 'lean' | 'full'): Promise<number> {
  const h = await createHarness({ settings: { 'agents.childContext': mode }, files: delegationFiles() });
  try {
    const isChild = (b: any) => /You have \d+ tool rounds for this task\./.test(b.messages[0].content);
    h.server.setResponder((b) =>
      isChild(b)
        ? { text: 'found it' }
        : b.messages.some((m: any) => m.role === 'tool')
          ? { text: 'done' }
          : { toolCalls: [{ name: 'delegate_task', arguments: JSON.stringify({ task: 'Find where the HTTP server is configured.', agent: 'explore' }) }] },
    );
    await h.agent.runTurn(h.agent.newSession(), 'Where is the server configured?', new AbortController().signal);
    return requestTokens(h.bodies().find(isChild)).total;
  } finally {
    await h.close();
  }
}

async function runSession(settings: Record<string, unknown>, opts: { files?: Record<string, string>; extraTools?: any[]; step: (round: number) => any }): Promise<SessionFigures> {
  const h = await createHarness({ settings: { 'agent.maxRounds': 200, 'approvals.autoApprove': ['exec', 'write'], ...settings }, files: opts.files, extraTools: opts.extraTools });
  try {
    h.server.setResponder((_body, i) => opts.step(i));
    const result = await h.agent.runTurn(h.agent.newSession(), 'Find and fix the failing case.', new AbortController().signal);
    const raws = h.server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.raw);
    const bodies = raws.map((r) => JSON.parse(r));
    const tokens = bodies.map((b) => requestTokens(b));
    let same = 0;
    let comparable = 0;
    for (let i = 1; i < bodies.length; i++) {
      const names = (b: any) => (b.tools ?? []).map((t: any) => t.function.name).join(',');
      if (names(bodies[i]) !== names(bodies[i - 1])) continue;
      comparable++;
      const block = (b: any) => JSON.stringify(b.tools ?? []);
      if (block(bodies[i]) === block(bodies[i - 1]) && raws[i].includes(block(bodies[i])) && bodies[i].messages[0].content === bodies[i - 1].messages[0].content) same++;
    }
    return {
      rounds: bodies.length,
      tokensPerRound: tokens.map((t) => t.total),
      totalTokens: tokens.reduce((a, t) => a + t.total, 0),
      firstRequest: { systemPlusTools: tokens[0].system + tokens[0].tools, tools: tokens[0].tools },
      identicalShare: comparable ? same / comparable : 1,
      overheadMs: { median: median(result.overheadMs), p95: percentile(result.overheadMs, 95) },
      commitWaitMs: { median: median(result.commitWaitMs), p95: percentile(result.commitWaitMs, 95) },
    };
  } finally {
    await h.close();
  }
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

async function main(): Promise<void> {
  const started = new Date();
  console.log(`Snowpea benchmark, ${started.toISOString()} on ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}\n`);

  const longDefaults = await runSession({}, { files: longSessionFiles(), step: longSessionStep });
  const longNaive = await runSession(NAIVE, { files: longSessionFiles(), step: longSessionStep });
  const tools = manyDeferredTools('github', 64);
  const defDefaults = await runSession({}, { extraTools: tools, step: (i) => deferredSessionStep(i, tools) });
  const defNaive = await runSession(NAIVE, { extraTools: tools, step: (i) => deferredSessionStep(i, tools) });

  const { firstRequestTokens } = await import('./first-request');
  const first = await firstRequestTokens();
  const lean = await childFirstRequest('lean');
  const full = await childFirstRequest('full');

  let store: unknown;
  try {
    const { benchStoreFlush } = await import('./store-flush');
    store = await benchStoreFlush();
  } catch (e) {
    store = { error: (e as Error).message };
  }

  const rows = [
    ['60-round session: total input tokens', longDefaults.totalTokens, longNaive.totalTokens, pct(longDefaults.totalTokens / longNaive.totalTokens), '<= 30%'],
    ['60-round session: tokens in the last round', longDefaults.tokensPerRound.at(-1)!, longNaive.tokensPerRound.at(-1)!, pct(longDefaults.tokensPerRound.at(-1)! / longNaive.tokensPerRound.at(-1)!), ''],
    ['default tools: first request, system + tools', first.total, '', '', '<= 1,600 tokens'],
    ['64 deferred tools: first request, system + tools', defDefaults.firstRequest.systemPlusTools, defNaive.firstRequest.systemPlusTools, pct(defDefaults.firstRequest.systemPlusTools / defNaive.firstRequest.systemPlusTools), '< 4,000 tokens'],
    ['64 deferred tools: total input tokens', defDefaults.totalTokens, defNaive.totalTokens, pct(defDefaults.totalTokens / defNaive.totalTokens), ''],
    ['byte-identical tools+system, unchanged rounds (60-round)', pct(longDefaults.identicalShare), pct(longNaive.identicalShare), '', '>= 95%'],
    ['byte-identical tools+system, unchanged rounds (deferred)', pct(defDefaults.identicalShare), pct(defNaive.identicalShare), '', '>= 95%'],
    ['delegated explore child: first request tokens (lean vs full)', lean, full, pct(lean / full), ''],
    ['loop overhead per round, median ms (60-round)', longDefaults.overheadMs.median.toFixed(2), longNaive.overheadMs.median.toFixed(2), '', '< 2 ms'],
    ['loop overhead per round, p95 ms (60-round)', longDefaults.overheadMs.p95.toFixed(2), longNaive.overheadMs.p95.toFixed(2), '', ''],
    ['wait for the round to be durable, median ms (not blocking)', longDefaults.commitWaitMs.median.toFixed(2), longNaive.commitWaitMs.median.toFixed(2), '', ''],
  ];
  const head = ['measure', 'snowpea', 'naive', 'ratio', 'target'];
  const widths = head.map((_, c) => Math.max(head[c].length, ...rows.map((r) => String(r[c]).length)));
  const line = (r: unknown[]) => r.map((v, c) => (c === 0 ? String(v).padEnd(widths[c]) : String(v).padStart(widths[c]))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  if (store && !(store as any).error) {
    const s = store as any;
    console.log(`\nstate.db with ${s.historyMB.toFixed(1)} MB of history: commitRound blocks the event loop ${s.commitRoundBlockMs.median.toFixed(2)} ms median (p95 ${s.commitRoundBlockMs.p95.toFixed(2)}); naive export+write ${s.baselineExportWriteMs.toFixed(0)} ms (${pct(s.commitRoundBlockMs.median / s.baselineExportWriteMs)}); background fold ${s.foldMs.toFixed(0)} ms of which ${s.foldBlockMs.toFixed(0)} ms blocking`);
  } else console.log(`\nstate.db flush: ${JSON.stringify(store)}`);

  let cost: unknown;
  try {
    const { costBench, formatCost, formatNeeds, summarize } = await import('./cost-bench');
    const { costSvg } = await import('./cost-svg');
    const r = await costBench();
    const n = r.sets.reduce((a, x) => a + x.count, 0);
    for (const x of r.sets) console.log(`\n${formatCost(`Cost under prompt caching, ${x.name} (${x.count} trajectories; ratio to naive, rolling pruning in brackets):`, x.rows)}`);
    console.log(`\n${formatCost(`Cost under prompt caching, all ${n} real trajectories (the headline):`, r.trajectories)}`);
    console.log(`\n${formatNeeds(r.trajectories)}`);
    console.log(`\n${formatCost('Cost under prompt caching, the 60-round synthetic session:', r.synthetic)}`);
    fs.writeFileSync(path.join(__dirname, 'cost.svg'), costSvg(r.trajectories, `${n} real agent trajectories`));
    cost = { trajectories: summarize(r.trajectories), sets: r.sets.map((x) => ({ name: x.name, count: x.count, summary: summarize(x.rows) })), synthetic: summarize(r.synthetic) };
    console.log('\nwrote bench/cost.svg');
  } catch (e) {
    cost = { error: (e as Error).message };
    console.log(`\ncost: failed: ${(e as Error).message}`);
  }

  let longSession: unknown;
  try {
    const { longSessionBench, formatLongSession } = await import('./long-session');
    const r = await longSessionBench();
    longSession = r;
    console.log(`\n${formatLongSession(r)}`);
  } catch (e) {
    longSession = { error: (e as Error).message };
    console.log(`\nlong session: failed: ${(e as Error).message}`);
  }

  let toolLoads: unknown;
  try {
    const { toolLoadBench } = await import('./tool-loads');
    const rows = await toolLoadBench();
    toolLoads = rows;
    console.log('\nTool loads (64 deferred tools, 3 used): loading them as one group against one by one, cost ratio per price model:');
    for (const r of rows) console.log(`  ${r.price.padEnd(32)} ${(r.grouped / r.oneByOne).toFixed(3)} (${r.loadsOneByOne} tools-block changes one by one, ${r.loadsGrouped} as a group)`);
  } catch (e) {
    toolLoads = { error: (e as Error).message };
  }

  const { outputCapReport } = await import('./output-caps');
  const caps = outputCapReport();
  console.log(`\nOutput caps on the trajectories' ${caps.outputs} tool outputs (${caps.totalChars.toLocaleString('en-US')} chars): ${caps.rows.map((r) => `${r.cap.toLocaleString('en-US')} cuts ${r.over} output(s), ${r.cutChars.toLocaleString('en-US')} chars`).join('; ')}`);
  console.log(`grep on the trajectories' ${caps.grep.searches} searches (largest ${caps.grep.maxLines} lines): ${caps.grep.rows.map((r) => `a cap of ${r.cap} matches cuts ${r.over} search(es), ${r.cutLines} lines`).join('; ')}`);
  console.log(`read_file on the trajectories' ${caps.views.reads} file views (largest ${caps.views.maxLines} lines): ${caps.views.rows.map((r) => `a ${r.cap}-line window cuts ${r.over} view(s), ${r.cutLines} lines`).join('; ')}`);

  let checkpointWait: unknown;
  try {
    const { checkpointWaitBench } = await import('./checkpoint-wait');
    const r = await checkpointWaitBench();
    checkpointWait = r;
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    console.log(`\nFirst request of a session on a ${r.files.toLocaleString('en-US')}-file workspace: after ${ms(r.overlapped.firstRequest)} with the checkpoint taken beside it, against ${ms(r.baseline.firstRequest)} with the checkpoint first (${pct(r.overlapped.firstRequest / r.baseline.firstRequest)}); a turn without tools still ends once the checkpoint is recorded (${ms(r.overlapped.turn)} against ${ms(r.baseline.turn)}; the checkpoint is disk-bound and varies from run to run)`);
  } catch (e) {
    checkpointWait = { error: (e as Error).message };
    console.log(`\ncheckpoint wait: failed: ${(e as Error).message}`);
  }

  let webview: unknown;
  try {
    const { benchWebviewRender, formatWebviewRender } = await import('./webview-render');
    const r = await benchWebviewRender();
    webview = r;
    console.log(`\n${formatWebviewRender(r)}`);
  } catch (e) {
    const message = (e as Error).message;
    webview = { error: message };
    console.log(/Chromium not found/.test(message) ? `\nwebview render: skipped, ${message}` : `\nwebview render: failed: ${message}`);
  }

  let images: unknown;
  try {
    const { benchImages, formatImagesBench } = await import('./images');
    const r = await benchImages();
    images = r;
    console.log(`\n${formatImagesBench(r)}`);
  } catch (e) {
    images = { error: (e as Error).message };
    console.log(`\nimages: ${(e as Error).message}`);
  }

  const out = { date: started.toISOString(), machine: { cores: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version }, longSession: { snowpea: longDefaults, naive: longNaive }, deferredSession: { snowpea: defDefaults, naive: defNaive }, delegation: { leanChildFirstRequest: lean, fullChildFirstRequest: full }, firstRequest: first, cost, compaction: longSession, toolLoads, outputCaps: caps, checkpointWait, store, webview, images };
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', 'latest.json'), JSON.stringify(out, null, 2));
  console.log(`\nwrote bench/results/latest.json`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
