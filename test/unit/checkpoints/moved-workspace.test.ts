/**
 * Reliability N11: deleting a session whose workspace folder was moved (or deleted) printed
 * "could not remove the checkpoints of session …: the workspace … is not a folder" and left its
 * refs and objects for good. Forgetting runs git in the shadow repository, not in the workspace.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { newStore, checkpointWorld, signal, write } from './world';

const SID = '11111111-0000-4000-8000-000000000011';
const OTHER = '22222222-0000-4000-8000-000000000011';

function refs(gitDir: string): string[] {
  return execFileSync('git', ['--git-dir', gitDir, 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
}

function storeKiB(gitDir: string): number {
  const out = execFileSync('git', ['--git-dir', gitDir, 'count-objects', '-v'], { encoding: 'utf8' });
  return [...out.matchAll(/^(size|size-pack|size-garbage): (\d+)$/gm)].reduce((n, m) => n + Number(m[2]), 0);
}

describe('reliability N11: checkpoints of a deleted session are removed even when its workspace moved', function () {
  this.timeout(120_000);
  const w = checkpointWorld('sp-n11');

  it('N11: the workspace folder moved, then `sessions delete` (the store of the session\'s recorded folder): its refs and objects go, without a warning', async () => {
    write(w.ws, 'big.bin', randomBytes(300 * 1024));
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    write(w.ws, 'a.txt', 'x\n');
    assert.equal((await w.store.snapshot(SID, 2, signal())).ok, true);
    const gitDir = w.store.repo.gitDir;
    fs.renameSync(w.ws, `${w.ws}-moved`);
    try {
      // What the CLI does: the store of the folder the session recorded, which is gone.
      const store = newStore(w, w.ws);
      await store.forget(SID);
      assert.deepEqual(w.log.lines.filter((l) => l.startsWith('warn:')), []);
      // No checkpoint is left in the moved folder's shadow repository: it goes whole (its objects with it).
      assert.equal(fs.existsSync(gitDir), false, 'the shadow repository of the gone folder is removed');
    } finally {
      fs.renameSync(`${w.ws}-moved`, w.ws);
    }
  });

  it('N11: the workspace deleted; forgetting from the store of the folder it moved to also clears the old folder\'s checkpoints (loose and packed refs), and leaves other sessions\' alone', async () => {
    write(w.ws, 'a.txt', 'one\n');
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    assert.equal((await w.store.snapshot(OTHER, 1, signal())).ok, true);
    const oldDir = w.store.repo.gitDir;
    execFileSync('git', ['--git-dir', oldDir, 'pack-refs', '--all']);
    write(w.ws, 'b.txt', 'two\n');
    assert.equal((await w.store.snapshot(SID, 2, signal())).ok, true); // a loose ref beside the packed ones
    const moved = `${w.ws}-elsewhere`;
    fs.cpSync(w.ws, moved, { recursive: true });
    fs.rmSync(w.ws, { recursive: true, force: true });
    try {
      const there = newStore(w, moved);
      assert.notEqual(there.repo.gitDir, oldDir);
      await there.forget(SID);
      assert.deepEqual(w.log.lines.filter((l) => l.startsWith('warn:')), []);
      assert.deepEqual(refs(oldDir), [`refs/snowpea/${OTHER}/1`]);
      // Only OTHER's checkpoint holds objects now (a.txt); b.txt's went with the index of the gone folder.
      assert.equal(execFileSync('git', ['--git-dir', oldDir, 'cat-file', '-e', `refs/snowpea/${OTHER}/1:a.txt`]).length, 0);
      assert.ok(storeKiB(oldDir) < 50, `${storeKiB(oldDir)} KiB`);
    } finally {
      fs.rmSync(moved, { recursive: true, force: true });
      fs.mkdirSync(w.ws);
    }
  });
});
