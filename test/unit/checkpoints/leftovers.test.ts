/**
 * Reliability N8: a checkpoint (or diff, or restore) killed part way left a whole copy of the
 * index (`index-<pid>-<hex>`, its `.lock`) in the shadow repository for good. The next checkpoint
 * removes what dead processes left, and leaves a live process's files alone.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleChild, startChild } from './child-process';
import { checkpointWorld, signal, write } from './world';

const SID = '5a5a5a5a-0000-4000-8000-000000000008';

/** What a process left in the shadow repository: private indexes, their locks, incoming objects, scratch folders. */
function leftovers(gitDir: string): string[] {
  return fs.readdirSync(gitDir).filter((n) => /^(index|incoming|ignore)-\d+-/.test(n) || /^snowpea-excludes-.*\.tmp$/.test(n)).sort();
}

describe('reliability N8: leftovers of a killed checkpoint are cleaned at the next one', function () {
  this.timeout(120_000);
  const w = checkpointWorld('sp-n8');
  let bundle: string;
  let bundleDir: string;

  before(() => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-n8-bin-'));
    bundle = bundleChild(bundleDir);
  });
  after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));

  it('N8: a checkpoint SIGKILLed after git add left its index copy and lock; the next checkpoint removes them, keeps a live process\'s, and the store passes fsck', async () => {
    for (let i = 0; i < 50; i++) write(w.ws, `src/f${i}.ts`, `export const v${i} = ${i};\n`);
    const dir = path.join(w.state, 'checkpoints');
    // A first checkpoint, so the killed one copies a real index (as every later turn's does).
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    write(w.ws, 'src/f0.ts', 'changed\n');
    const killed = startChild(bundle, ['checkpoint', w.ws, dir, SID, '2'], { SNOWPEA_FAULT_CHECKPOINT: 'write-tree:kill' });
    const end = await killed.done;
    assert.equal(end.signal, 'SIGKILL', `the child was killed part way: ${JSON.stringify(end)}`);
    const gitDir = w.store.repo.gitDir;
    const pid = killed.child.pid!;
    // git's own lock, as a kill during `git add` leaves it.
    fs.writeFileSync(path.join(gitDir, `index-${pid}-0badf00d.lock`), '');
    const dead = leftovers(gitDir);
    assert.ok(dead.some((n) => n.startsWith(`index-${pid}-`) && !n.endsWith('.lock')), `the killed checkpoint's index copy is there: ${dead}`);
    assert.ok(dead.length >= 2, `${dead}`);
    assert.ok(!fs.readdirSync(path.join(gitDir, 'refs', 'snowpea', SID)).includes('2'), 'the killed checkpoint wrote no ref');

    // A process that is alive and at work: its private index must stay.
    const live = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    try {
      const liveIndex = `index-${live.pid}-0123abcd`;
      fs.writeFileSync(path.join(gitDir, liveIndex), 'in use');

      write(w.ws, 'src/f1.ts', 'changed too\n');
      assert.equal((await w.store.snapshot(SID, 2, signal())).ok, true);
      assert.deepEqual(leftovers(gitDir), [liveIndex], 'only the live process\'s index is left');
    } finally {
      live.kill('SIGKILL');
    }
    execFileSync('git', ['--git-dir', gitDir, 'fsck', '--full', '--no-progress'], { stdio: 'pipe' });
    assert.deepEqual((await w.store.list(SID)).map((c) => c.turn), [1, 2]);
  });

  it('N8: leftovers of a dead process are also cleared by a restore plan (no checkpoint needed), and a diff leaves nothing of its own', async () => {
    write(w.ws, 'a.txt', 'one\n');
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    const gitDir = w.store.repo.gitDir;
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.on('exit', r));
    for (const n of [`index-${gone.pid}-aaaaaaaa`, `index-${gone.pid}-aaaaaaaa.lock`, `ignore-${gone.pid}-bbbbbbbb`, `incoming-${gone.pid}-cccccccc`]) fs.mkdirSync(path.join(gitDir, n));
    write(w.ws, 'a.txt', 'two\n');
    assert.equal((await w.store.restorePlan(SID, 1, signal())).changes.length, 1);
    assert.deepEqual(leftovers(gitDir), []);
    assert.equal((await w.store.diffStat(SID, 1, signal())).length, 1);
    assert.deepEqual(leftovers(gitDir), []);
  });
});
