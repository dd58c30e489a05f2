/**
 * How long a session's first request waits for the turn's checkpoint, on a workspace of 10,000
 * files (the shadow repository's first snapshot reads every file). Baseline, measured in the same
 * run: the checkpoint taken first and the request sent after it (how turns ran before the
 * checkpoint moved beside the first request). Each side runs twice (A B B A) and reports the mean.
 * Reports, never asserts.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../extension/core/checkpoints/store';
import { recordingLogger } from '../test/fixtures/recording-logger';
import { createHarness } from '../test/fixtures/agent-harness';

function bigWorkspace(files: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-bench-cp-'));
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `m${i % 100}`);
    if (i < 100) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(40 + (i % 60)));
  }
  return root;
}

function store(workspace: string, dir: string): CheckpointStore {
  return new CheckpointStore({ workspaceRoot: workspace, dir, settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': 500 }), logger: recordingLogger() });
}

/** Milliseconds from sending the message to the first request reaching the server, and to the end of the turn. */
async function firstRequestMs(workspace: string, overlap: boolean): Promise<{ firstRequest: number; turn: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-bench-cps-'));
  const cps = store(workspace, dir);
  const h = await createHarness(overlap ? { checkpoints: cps } : {});
  try {
    let first = 0;
    const t0 = performance.now();
    h.server.setResponder(() => {
      first ||= performance.now() - t0;
      return { text: 'ok' };
    });
    if (!overlap) await cps.atTurnStart('bench-session', 1, new AbortController().signal);
    await h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal);
    return { firstRequest: first, turn: performance.now() - t0 };
  } finally {
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function checkpointWaitBench(files = 10_000): Promise<{ files: number; baseline: { firstRequest: number; turn: number }; overlapped: { firstRequest: number; turn: number } }> {
  const ws = bigWorkspace(files);
  try {
    // Each side runs twice, in the order A B B A, each run after the disk has caught up with the
    // last one's writes (a run started while the previous one's 10,000 objects are still being
    // written out measured up to twice as slow, whichever side it was).
    const runs: Array<{ overlap: boolean; r: { firstRequest: number; turn: number } }> = [];
    for (const overlap of [false, true, true, false]) {
      execFileSync('sync');
      runs.push({ overlap, r: await firstRequestMs(ws, overlap) });
    }
    const mean = (overlap: boolean) => {
      const rs = runs.filter((x) => x.overlap === overlap).map((x) => x.r);
      return { firstRequest: (rs[0].firstRequest + rs[1].firstRequest) / 2, turn: (rs[0].turn + rs[1].turn) / 2 };
    };
    return { files, baseline: mean(false), overlapped: mean(true) };
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

if (require.main === module) void checkpointWaitBench().then((r) => (console.log(r), process.exit(0)));
