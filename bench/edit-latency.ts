/**
 * `npm run bench:edit`: how long an edit_file round takes in real VS Code (code-server, the
 * packaged extension, the e2e harness) with the diagnostics wait of issue 29, against the fixed
 * wait it replaced (every edit waited; SNOWPEA_BENCH_DIAGNOSTICS_WAIT=fixed), each in its own
 * fresh window, in the same run. Three kinds of edit: a Markdown file (nothing checks it), a
 * TypeScript file that stays clean, and one whose every edit adds or removes a type error.
 *
 * Per-edit latency: from the model's request whose reply is the edit_file call to the next request
 * (which carries the tool result), as the scripted server sees them; the first edit of each kind
 * counts (the language service's cold start is part of what a user meets).
 * Writes bench/results/edit-latency.json. Reports, never asserts. Needs `npm run package` first
 * (the script does it) and installs code-server on first use, like the e2e tests.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startScriptedServer, type Step } from '../test/fixtures/scripted-server';
import { chatTurn, scriptedModelSettings, toolResults } from '../test/e2e/harness/scripted-model';
import { VsCodeSession } from '../test/e2e/harness/vscode-session';
import { median, percentile } from './tokens';

const ROUNDS = Math.max(2, Number(process.env.EDIT_BENCH_ROUNDS ?? 6));

type Kind = 'markdown' | 'ts-clean' | 'ts-error';
type Policy = 'fixed' | 'settle';

const FILES: Record<string, string> = {
  'notes.md': '# Notes\n\ncount: 0\n',
  'src/count.ts': 'export const count = 0;\n',
  'src/flip.ts': 'export const n: number = 0;\n',
};

/** The edit_file arguments of the i-th edit of a kind (each changes what the one before wrote). */
function editOf(kind: Kind, i: number): { path: string; old_string: string; new_string: string } {
  if (kind === 'markdown') return { path: 'notes.md', old_string: `count: ${i}`, new_string: `count: ${i + 1}` };
  if (kind === 'ts-clean') return { path: 'src/count.ts', old_string: `count = ${i};`, new_string: `count = ${i + 1};` };
  const good = 'n: number = 0;';
  const bad = "n: number = 'zero';";
  return i % 2 === 0 ? { path: 'src/flip.ts', old_string: good, new_string: bad } : { path: 'src/flip.ts', old_string: bad, new_string: good };
}

interface KindFigures {
  samplesMs: number[];
  median: number;
  p95: number;
  /** Tool results that named a problem the edit introduced (the ts-error kind should have ROUNDS / 2). */
  problemsReported: number;
  /** Edits whose tool result was an error (the bench reports them rather than stopping). */
  failed: number;
}

async function measure(policy: Policy): Promise<Record<Kind, KindFigures>> {
  const server = await startScriptedServer({ models: ['scripted-model'] });
  const session = await VsCodeSession.start({
    settings: scriptedModelSettings(server, { 'snowpea.approvals.autoApprove': ['write'], 'snowpea.agent.maxRounds': ROUNDS + 5 }),
    workspaceFiles: FILES,
    env: policy === 'fixed' ? { SNOWPEA_BENCH_DIAGNOSTICS_WAIT: 'fixed' } : {},
  });
  // A turn of ROUNDS edits at up to 4 s each outlasts the harness's 30 s default wait for its answer.
  session.page.setDefaultTimeout(ROUNDS * 10_000 + 60_000);
  try {
    const out = {} as Record<Kind, KindFigures>;
    for (const kind of ['markdown', 'ts-clean', 'ts-error'] as const) {
      const arrivals: number[] = [];
      const first = server.chatRequests().length;
      let i = 0;
      server.setResponder((): Step => {
        arrivals.push(performance.now());
        if (i < ROUNDS) return { toolCalls: [{ name: 'edit_file', arguments: JSON.stringify(editOf(kind, i++)) }] };
        return { text: `${kind} done` };
      });
      await chatTurn(session.workbench, `make the ${kind} edits`, `${kind} done`);
      const results = Array.from({ length: ROUNDS }, (_, k) => toolResults(server, first + k + 1).at(-1) ?? '');
      const failed = results.filter((r) => !r.startsWith('edited '));
      if (failed.length) console.log(`${policy}, ${kind}: ${failed.length} of ${ROUNDS} edits failed, first: ${failed[0]}`);
      const samplesMs = arrivals.slice(1).map((t, k) => Math.round(t - arrivals[k]));
      out[kind] = { samplesMs, median: median(samplesMs), p95: percentile(samplesMs, 95), problemsReported: results.filter((r) => /introduced a problem/.test(r)).length, failed: failed.length };
    }
    return out;
  } finally {
    await session.close();
    await server.close();
  }
}

const ms = (x: number) => `${Math.round(x).toLocaleString('en-US')} ms`;

async function main(): Promise<void> {
  const started = new Date();
  console.log(`edit latency in VS Code (code-server): ${ROUNDS} edits of each kind, the diagnostics wait of issue 29 vs the fixed wait before it`);
  const fixed = await measure('fixed');
  const settle = await measure('settle');
  const rows: string[] = ['| edit | measure | now | fixed wait (before) | ratio |', '| --- | --- | ---: | ---: | ---: |'];
  const failures = (['markdown', 'ts-clean', 'ts-error'] as const).map((k) => `${k} ${settle[k].failed}/${fixed[k].failed}`).join(', ');
  for (const kind of ['markdown', 'ts-clean', 'ts-error'] as const) {
    for (const m of ['median', 'p95'] as const) {
      rows.push(`| ${kind} | ${m} | ${ms(settle[kind][m])} | ${ms(fixed[kind][m])} | ${((settle[kind][m] / fixed[kind][m]) * 100).toFixed(0)}% |`);
    }
  }
  console.log(rows.join('\n'));
  console.log(`failed edits (now/before): ${failures}`);
  console.log(`problems reported to the model in ts-error edits: now ${settle['ts-error'].problemsReported}, before ${fixed['ts-error'].problemsReported} (of ${ROUNDS}; every other edit adds the error)`);
  const out = { date: started.toISOString(), machine: { cores: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version }, rounds: ROUNDS, settle, fixed };
  const file = path.join(__dirname, 'results', 'edit-latency.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.log(`written to ${path.relative(process.cwd(), file)}`);
}

main().catch((e) => {
  console.error(`edit latency bench failed: ${(e as Error).stack ?? e}`);
  process.exitCode = 1;
});
