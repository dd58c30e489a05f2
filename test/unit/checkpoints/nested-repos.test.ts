/**
 * Reliability N7: a turn that edited a.txt, a file in a submodule (vendor/lib) and one in a nested
 * repository (nested) ended with "changed 1 file: a.txt", and a restore said "restored 1 file"
 * while the other two kept the agent's edits, unsaid. Nested repositories are still not
 * checkpointed (each has its own git), but the diff stat and the restore now name those that
 * changed since the checkpoint and say that a restore leaves them as they are.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nestedLine, restoreListing } from '../../../extension/core/checkpoints';
import { checkpointWorld, read, signal, write } from './world';

const SID = '07070707-0000-4000-8000-000000000007';

function repoWithFile(dir: string, file: string, text: string, gitDir?: string): void {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', ...(gitDir ? ['--separate-git-dir', gitDir] : []), dir]);
  fs.writeFileSync(path.join(dir, file), text);
  execFileSync('git', ['-C', dir, 'add', '-A']);
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init']);
}

describe('reliability N7: edits in submodules and nested repositories are named, not silently skipped', function () {
  this.timeout(120_000);
  const w = checkpointWorld('sp-n7');
  let modules: string;
  beforeEach(() => (modules = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-n7-modules-'))));
  afterEach(() => fs.rmSync(modules, { recursive: true, force: true }));

  function workspaceWithNested(): void {
    write(w.ws, 'a.txt', 'one\n');
    // A submodule's work tree has a .git file pointing at its git folder elsewhere; a nested clone has its own .git folder.
    repoWithFile(path.join(w.ws, 'vendor/lib'), 'lib.txt', 'lib one\n', path.join(modules, 'lib.git'));
    repoWithFile(path.join(w.ws, 'nested'), 'n.txt', 'nested one\n');
    repoWithFile(path.join(w.ws, 'quiet'), 'q.txt', 'untouched\n');
  }

  it('N7: the turn\'s report names the submodule and the nested repository it edited (not the untouched one), and says a restore leaves them', async () => {
    workspaceWithNested();
    await w.store.atTurnStart(SID, 1, signal());
    write(w.ws, 'a.txt', 'two\n');
    write(w.ws, 'vendor/lib/lib.txt', 'lib two\n');
    write(w.ws, 'nested/n.txt', 'nested two\n');
    w.store.atTurnEnd(SID);

    const report = await w.store.turnReport(SID, 1, signal());
    assert.deepEqual(report.files.map((f) => f.path), ['a.txt']);
    assert.deepEqual(report.nested.map((c) => [c.repo, c.files]), [['nested', 1], ['vendor/lib', 1]]);
    assert.equal(
      nestedLine(report.nested, 'during this turn'),
      '2 nested repositories changed during this turn: nested (1 file changed), vendor/lib (1 file changed); checkpoints do not cover nested repositories (each has its own git), so a restore leaves them as they are',
    );
  });

  it('N7: the restore plan (CLI list and VS Code dialog) names them as left as they are; the restore changes a.txt only', async () => {
    workspaceWithNested();
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    write(w.ws, 'a.txt', 'two\n');
    write(w.ws, 'nested/n.txt', 'nested two\n');
    fs.rmSync(path.join(w.ws, 'vendor/lib/lib.txt'));
    const plan = await w.store.restorePlan(SID, 1, signal());
    assert.deepEqual(plan.changes, [{ path: 'a.txt', status: 'modified' }]);
    assert.deepEqual(
      restoreListing(plan).slice(-3),
      ['Left as they are (nested repositories, which checkpoints do not cover): 2', '  nested (1 file changed)', '  vendor/lib (files removed or renamed)'],
    );
    assert.deepEqual((await w.store.restore(SID, 1, signal())).map((c) => c.path), ['a.txt']);
    assert.equal(read(w.ws, 'a.txt').toString(), 'one\n');
    assert.equal(read(w.ws, 'nested/n.txt').toString(), 'nested two\n');
  });

  it('N7: a turn that touches no nested repository says nothing about them; one removed since is named as removed', async () => {
    workspaceWithNested();
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    write(w.ws, 'a.txt', 'two\n');
    assert.deepEqual((await w.store.turnReport(SID, 1, signal())).nested, []);
    fs.rmSync(path.join(w.ws, 'quiet'), { recursive: true });
    assert.deepEqual((await w.store.restorePlan(SID, 1, signal())).nested.map((c) => [c.repo, c.gone]), [['quiet', true]]);
  });
});
