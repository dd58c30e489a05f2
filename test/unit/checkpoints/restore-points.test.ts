import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { checkpointWorld, exists, read, signal, write } from './world';

const SID = '6f1c2a9e-0d1b-4c55-9e0f-1a2b3c4d5e6f';

describe('restore points (reliability N6: a restore can be undone)', function () {
  this.timeout(30000);
  const w = checkpointWorld('sp-undo');

  /** The report's scenario: the turn edits a.txt; afterwards the user changes b.txt and creates notes.txt. */
  async function userWorkAfterTurn() {
    write(w.ws, 'a.txt', 'aye\n');
    write(w.ws, 'b.txt', 'bee\n');
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    write(w.ws, 'a.txt', 'agent edit\n');
    write(w.ws, 'b.txt', 'bee, and my own work\n');
    write(w.ws, 'notes.txt', 'my notes\n');
  }

  it('N6: a restore takes a restore point first, and restoring to it brings back the user\'s later work', async () => {
    await userWorkAfterTurn();
    const done = await w.store.restoreUndoable(SID, 1, signal());
    assert.deepEqual(done.changes.map((c) => `${c.status} ${c.path}`), ['added notes.txt', 'modified a.txt', 'modified b.txt']);
    assert.equal(done.undo, 'u1');
    assert.equal(read(w.ws, 'b.txt').toString(), 'bee\n');
    assert.ok(!exists(w.ws, 'notes.txt'));

    const points = await w.store.restorePoints(SID);
    assert.deepEqual(points.map((p) => [p.name, p.before]), [['u1', 1]]);
    assert.ok(Math.abs(points[0].time - Date.now()) < 60_000, 'with its time');
    assert.deepEqual((await w.store.list(SID)).map((c) => c.turn), [1], 'a point is not a turn checkpoint');

    const undone = await w.store.restoreUndoable(SID, 'u1', signal());
    assert.deepEqual(undone.changes.map((c) => `${c.status} ${c.path}`), ['deleted notes.txt', 'modified a.txt', 'modified b.txt']);
    assert.equal(read(w.ws, 'a.txt').toString(), 'agent edit\n');
    assert.equal(read(w.ws, 'b.txt').toString(), 'bee, and my own work\n');
    assert.equal(read(w.ws, 'notes.txt').toString(), 'my notes\n');
    // The undo is a restore too: it can be undone in turn.
    assert.equal(undone.undo, 'u2');
    assert.deepEqual((await w.store.restorePoints(SID)).map((p) => [p.name, p.before]), [['u1', 1], ['u2', 'u1']]);
  });

  it('N6: a restore that changes nothing takes no point; an unknown point is refused; deleting the session removes its points', async () => {
    write(w.ws, 'a.txt', 'aye\n');
    await w.store.snapshot(SID, 1, signal());
    assert.deepEqual(await w.store.restoreUndoable(SID, 1, signal()), { changes: [] });
    assert.deepEqual(await w.store.restorePoints(SID), []);
    await assert.rejects(w.store.restore(SID, 'u3', signal()), /session .* has no restore point u3/);

    write(w.ws, 'a.txt', 'changed\n');
    await w.store.restore(SID, 1, signal());
    assert.equal((await w.store.restorePoints(SID)).length, 1);
    await w.store.forget(SID);
    const refs = execFileSync('git', ['--git-dir', w.store.repo.gitDir, 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8' });
    assert.equal(refs.trim(), '');
  });
});
