/**
 * The restore fault suite (reliability N1): a real child process restores a workspace and is
 * SIGKILLed after a seeded random number of the restore's steps (SNOWPEA_FAULT_RESTORE_AFTER:
 * each temporary, probe, journal write, rename and removal is one), at least 20 times. After
 * each kill the next store to open the workspace finishes or rolls back what the journal says,
 * and the workspace is compared, file by file (content, executable bit, link target), with the
 * state before the restore and the checkpoint's: it is always wholly one of them, never a mix,
 * never with a temporary left. A kill before the commit point always leaves the old state; one
 * after it the new. When the restore was finished, restoring to its restore point (u<n>) brings
 * the old state back. FAULT_SEED replays a failing run.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../../extension/core/checkpoints';
import { recordingLogger } from '../../fixtures/recording-logger';
import { prng } from '../faults/kill-cli';
import { bundleChild, startChild } from './child-process';

const KILLS = 24;
const SEED = Number(process.env.FAULT_SEED ?? 20261204);
const SID = 'f4a1c0de-5e55-4a11-9e0f-000000000001';

type Tree = Record<string, string>;

/** Every file under `dir` as `path -> kind:content hash[:x]` (links by target; folders only through their files). */
function treeOf(dir: string): Tree {
  const out: Tree = {};
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isSymbolicLink()) out[r] = `link:${fs.readlinkSync(path.join(dir, r))}`;
      else out[r] = `file:${createHash('sha1').update(fs.readFileSync(path.join(dir, r))).digest('hex')}${st.mode & 0o100 ? ':x' : ''}`;
    }
  };
  walk('');
  return out;
}

function put(ws: string, rel: string, data: string | Buffer, mode = 0o644): void {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), data, { mode });
  fs.chmodSync(path.join(ws, rel), mode);
}

function bytes(seed: number, n: number): Buffer {
  const r = prng(seed);
  return Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
}

/** The checkpoint's state (what the restore goes back to). */
function writeNew(ws: string): void {
  for (let i = 0; i < 5; i++) put(ws, `keep/k${i}.txt`, `kept ${i}\n`);
  for (let i = 0; i < 12; i++) put(ws, `mod/m${i}.txt`, `checkpoint text of m${i}\n`.repeat(i + 1));
  for (let i = 0; i < 5; i++) put(ws, `gone/sub/g${i}.txt`, `recreated ${i}\n`);
  put(ws, 'bin.dat', bytes(1, 200_000));
  put(ws, 'run.sh', '#!/bin/sh\necho hi\n', 0o755);
  fs.symlinkSync('keep/k0.txt', path.join(ws, 'link'));
  put(ws, 'swap', 'a file in the checkpoint\n');
}

/** The state the restore starts from: every kind of change against the checkpoint. */
function writeOld(ws: string): void {
  for (let i = 0; i < 5; i++) put(ws, `keep/k${i}.txt`, `kept ${i}\n`);
  for (let i = 0; i < 12; i++) put(ws, `mod/m${i}.txt`, `the turn rewrote m${i}\n`);
  put(ws, 'bin.dat', bytes(2, 150_000));
  put(ws, 'run.sh', '#!/bin/sh\necho changed\n', 0o644);
  put(ws, 'link', 'a file where the link was\n');
  put(ws, 'swap/inner.txt', 'a folder where the file was\n');
  for (let i = 0; i < 6; i++) put(ws, `new/deep/n${i}.txt`, `created by the turn ${i}\n`);
  for (let i = 0; i < 4; i++) put(ws, `extra${i}.txt`, `extra ${i}\n`);
}

function reset(ws: string, fill: (ws: string) => void): void {
  for (const name of fs.readdirSync(ws)) fs.rmSync(path.join(ws, name), { recursive: true, force: true });
  fill(ws);
}

describe('restore fault suite: SIGKILL at random points of a restore (reliability N1)', function () {
  this.timeout(170_000);
  let ws: string;
  let state: string;
  let bundle: string;
  let bundleDir: string;

  before(() => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-rfault-bin-'));
    bundle = bundleChild(bundleDir);
  });
  after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));

  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-rfault-ws-')));
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-rfault-state-'));
  });
  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });

  const open = (log = recordingLogger(), notices: string[] = []) =>
    new CheckpointStore({ workspaceRoot: ws, dir: path.join(state, 'checkpoints'), settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': 200 }), logger: log, onNotice: (m) => notices.push(m) });

  it(`${KILLS} kills (seed ${SEED}): the workspace is always wholly as before or wholly restored, and the restore point undoes a finished one`, async () => {
    reset(ws, writeNew);
    const NEW = treeOf(ws);
    assert.equal((await open().snapshot(SID, 1, new AbortController().signal)).ok, true);
    reset(ws, writeOld);
    const OLD = treeOf(ws);
    const changes = (await open().restorePlan(SID, 1, new AbortController().signal)).changes;
    const removals = changes.filter((c) => c.status === 'added').length;
    const writes = changes.length - removals;
    assert.deepEqual([removals, writes], [11, 21], 'the plan covers every kind of change');
    // The staging journal, a probe per removal, a temporary per write: the commit point is the next step.
    const commitStep = 1 + removals + writes + 1;
    const lastStep = commitStep + removals + writes + 1;

    const random = prng(SEED);
    const seen = { old: 0, new: 0, undone: 0 };
    for (let k = 0; k < KILLS; k++) {
      // The edges every run: the first step, the commit point, the one before it, the last.
      const n = [1, commitStep - 1, commitStep, lastStep][k] ?? 1 + Math.floor(random() * lastStep);
      const label = `kill ${k + 1} after step ${n} of ${lastStep} (seed ${SEED})`;
      reset(ws, writeOld);
      const run = await startChild(bundle, ['restore', ws, path.join(state, 'checkpoints'), SID, '1'], { SNOWPEA_FAULT_RESTORE_AFTER: String(n) }).done;
      assert.equal(run.signal, 'SIGKILL', `${label}: the child was killed (it printed ${run.stdout.trim() || 'nothing'})`);

      const notices: string[] = [];
      const store = open(recordingLogger(), notices);
      store.recoverInterrupted();
      const now = treeOf(ws);
      const expected = n < commitStep ? OLD : NEW;
      assert.deepEqual(now, expected, `${label}: the workspace is wholly ${n < commitStep ? 'as before' : 'restored'}`);
      assert.equal(fs.existsSync(store.lock.journalFile), false, `${label}: the journal is gone`);
      if (n < lastStep) {
        assert.equal(notices.length, 1, `${label}: the user is told`);
        assert.match(notices[0], n < commitStep ? /interrupted restore of session .* \(to before turn 1\) .* was rolled back: the 32 files/ : /interrupted restore of session .* was finished: 32 files restored/);
      }
      if (n < commitStep) {
        seen.old++;
        continue;
      }
      seen.new++;
      if (seen.new > 3) continue; // each undo is a whole restore: three of them show it
      const point = (await store.restorePoints(SID)).at(-1);
      assert.ok(point, `${label}: the restore took a point`);
      await store.restoreUndoable(SID, point.name, new AbortController().signal);
      assert.deepEqual(treeOf(ws), OLD, `${label}: restoring to ${point.name} undoes the restore`);
      seen.undone++;
    }
    assert.ok(seen.old >= 2 && seen.new >= 2 && seen.undone >= 2, `both outcomes met: ${JSON.stringify(seen)}`);
    process.stdout.write(`      restore fault suite: ${KILLS} kills, ${seen.old} rolled back, ${seen.new} finished, ${seen.undone} undone\n`);
  });
});
