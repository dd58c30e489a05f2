import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { CheckpointStore } from '../../../extension/core/checkpoints';
import { checkpointWorld, signal, write, type World } from './world';

const SID = 'feed0000-0000-4000-8000-00000000000f';
const OTHER = 'feed0000-0000-4000-8000-0000000000aa';
const DAY = 24 * 3600 * 1000;

/** KiB the shadow repository's objects take (loose, packed, garbage). */
function storeKiB(gitDir: string): number {
  const out = execFileSync('git', ['--git-dir', gitDir, 'count-objects', '-v'], { encoding: 'utf8' });
  return [...out.matchAll(/^(size|size-pack|size-garbage): (\d+)$/gm)].reduce((n, m) => n + Number(m[2]), 0);
}

function storeWithClock(w: World, now: () => number): CheckpointStore {
  return new CheckpointStore({
    workspaceRoot: w.ws,
    dir: path.join(w.state, 'checkpoints'),
    settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': w.limitMB, 'checkpoints.maxFileMB': w.maxFileMB, 'checkpoints.maxStoreMB': w.maxStoreMB, 'checkpoints.maxAgeDays': w.maxAgeDays }),
    logger: w.log,
    clock: now,
  });
}

describe('the checkpoint store stays bounded (red team N15)', function () {
  this.timeout(120000);
  const w = checkpointWorld('sp-ckpt-n15');

  it('N15 K8: a large file regenerated every turn does not grow the store past checkpoints.maxStoreMB; the oldest go, said in the log', async () => {
    w.maxStoreMB = 2;
    write(w.ws, 'src/a.txt', 'a\n');
    for (let turn = 1; turn <= 6; turn++) {
      write(w.ws, 'out.bin', randomBytes(700 * 1024)); // incompressible, new every turn
      assert.equal((await w.store.snapshot(SID, turn, signal())).ok, true);
    }
    const kib = storeKiB(w.store.repo.gitDir);
    assert.ok(kib <= 2 * 1024, `the store holds ${kib} KiB, over the 2 MB cap`);
    const turns = (await w.store.list(SID)).map((c) => c.turn);
    assert.equal(turns.at(-1), 6, 'the newest checkpoint stays');
    assert.ok(turns.length < 6 && turns.length >= 1, `turns left: ${turns}`);
    assert.ok(
      w.log.lines.some((l) => /^info: removed the oldest \d+ checkpoints?, to keep the store under 2 MB \(checkpoints\.maxStoreMB\)/.test(l)),
      w.log.lines.join('\n'),
    );
  });

  it('N15: checkpoints older than checkpoints.maxAgeDays are removed (any session of the workspace) and their objects go with them', async () => {
    let now = Date.now();
    const store = storeWithClock(w, () => now);
    write(w.ws, 'old.bin', randomBytes(300 * 1024));
    await store.snapshot(OTHER, 1, signal());
    await store.snapshot(SID, 1, signal());
    execFileSync('rm', [path.join(w.ws, 'old.bin')]);
    const before = storeKiB(store.repo.gitDir);
    now += 8 * DAY;
    write(w.ws, 'a.txt', 'new\n');
    assert.equal((await store.snapshot(SID, 2, signal())).ok, true);
    assert.deepEqual((await store.list(OTHER)).length, 0);
    assert.deepEqual((await store.list(SID)).map((c) => c.turn), [2]);
    assert.ok(w.log.lines.some((l) => /^info: removed 2 checkpoints older than 7 days \(checkpoints\.maxAgeDays\)/.test(l)), w.log.lines.join('\n'));
    const after = storeKiB(store.repo.gitDir);
    assert.ok(after < before - 250, `the old file's objects are gone (${before} KiB -> ${after} KiB)`);
  });

  it('N15: a file over checkpoints.maxFileMB is never copied into the store', async () => {
    w.maxFileMB = 1;
    write(w.ws, 'a.txt', 'a\n');
    for (let turn = 1; turn <= 3; turn++) {
      write(w.ws, 'model.bin', randomBytes(3 * 1024 * 1024));
      await w.store.snapshot(SID, turn, signal());
    }
    assert.ok(storeKiB(w.store.repo.gitDir) < 512, `${storeKiB(w.store.repo.gitDir)} KiB`);
  });

  it('N15: forgetting a session frees its objects at once (git gc --prune=now)', async () => {
    write(w.ws, 'big.bin', randomBytes(500 * 1024));
    await w.store.snapshot(SID, 1, signal());
    execFileSync('rm', [path.join(w.ws, 'big.bin')]);
    await w.store.snapshot(OTHER, 1, signal());
    await w.store.forget(SID);
    assert.ok(storeKiB(w.store.repo.gitDir) < 100, `${storeKiB(w.store.repo.gitDir)} KiB`);
  });
});
