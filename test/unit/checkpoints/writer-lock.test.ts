/**
 * One writer per workspace across processes (reliability N5), with a real second process
 * (restore-child.ts): a restore is refused while another process is in a turn on the workspace,
 * naming it; a dead process's hold does not count; a turn waits while another process restores.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceBusyError } from '../../../extension/core/checkpoints';
import { bundleChild, startChild } from './child-process';
import { checkpointWorld, read, signal, write } from './world';

const SID = '0a0b0c0d-1111-4222-8333-444455556666';
const OTHER = '9f9e9d9c-1111-4222-8333-444455556666';

describe('one writer per workspace across processes (reliability N5)', function () {
  this.timeout(60_000);
  const w = checkpointWorld('sp-wlock');
  let bundle: string;
  let bundleDir: string;

  before(() => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-wlock-bin-'));
    bundle = bundleChild(bundleDir);
  });
  after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));

  async function turnThenEdit(): Promise<void> {
    write(w.ws, 'a.txt', 'checkpoint\n');
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    write(w.ws, 'a.txt', 'edited by the turn\n');
  }

  it('N5: a restore while another process is in a turn on the workspace is refused, naming it; once its turn ends the restore goes through', async () => {
    await turnThenEdit();
    const other = startChild(bundle, ['hold-edits', w.ws, path.join(w.state, 'checkpoints'), OTHER]);
    try {
      await other.line('holding');
      await assert.rejects(w.store.restoreUndoable(SID, 1, signal()), (e: unknown) => {
        assert.ok(e instanceof WorkspaceBusyError, String(e));
        assert.equal(e.pid, other.child.pid);
        assert.match(e.message, new RegExp(`is in use by another Snowpea process \\(pid ${other.child.pid}: a turn of session ${OTHER}\\)\\. Wait for it to finish, or stop it`));
        return true;
      });
      assert.equal(read(w.ws, 'a.txt').toString(), 'edited by the turn\n', 'nothing was restored');
      assert.deepEqual(await w.store.restorePoints(SID), [], 'not even a restore point');
      other.child.stdin!.write('end the turn\n');
      await other.line('released');
    } finally {
      other.child.kill('SIGKILL');
      await other.done;
    }
    const done = await w.store.restoreUndoable(SID, 1, signal());
    assert.equal(done.changes.length, 1);
    assert.equal(read(w.ws, 'a.txt').toString(), 'checkpoint\n');
  });

  it('N5: the hold of a process that died in its turn (SIGKILL) is stale and does not block a restore', async () => {
    await turnThenEdit();
    const other = startChild(bundle, ['hold-edits', w.ws, path.join(w.state, 'checkpoints'), OTHER]);
    await other.line('holding');
    other.child.kill('SIGKILL');
    await other.done;
    assert.ok(fs.readdirSync(w.store.lock.dir).some((n) => n.startsWith('edit-')), 'the dead turn left its hold');
    await w.store.restoreUndoable(SID, 1, signal());
    assert.equal(read(w.ws, 'a.txt').toString(), 'checkpoint\n');
    assert.ok(!fs.readdirSync(w.store.lock.dir).some((n) => n.startsWith('edit-')), 'and it was cleared');
  });

  it('N5: while another process restores, a turn waits (until it ends) and a second restore is refused naming it', async () => {
    await turnThenEdit();
    const other = startChild(bundle, ['hold-restore', w.ws, path.join(w.state, 'checkpoints')]);
    try {
      await other.line('holding');
      await assert.rejects(w.store.restoreUndoable(SID, 1, signal()), (e: unknown) => e instanceof WorkspaceBusyError && e.pid === other.child.pid && /a restore of session held-by-test/.test(e.message));
      // A turn that starts now waits: cancelling it while it waits rejects its wait.
      const cancelled = new AbortController();
      const waiting = w.store.lock.beginEdits('a turn of session waiting', cancelled.signal);
      cancelled.abort(new Error('cancelled while waiting'));
      await assert.rejects(waiting, /cancelled while waiting/);
      const turn = w.store.lock.beginEdits('a turn of session waiting', signal());
      other.child.stdin!.write('release\n');
      await other.line('released');
      const release = await turn;
      release();
    } finally {
      other.child.kill('SIGKILL');
      await other.done;
    }
  });
});
