/**
 * A restore is all or nothing (reliability N1), without a crash: a folder it cannot write in stops
 * it before any file changes, naming every file; and a journal left by an interrupted restore is
 * rolled back (before its commit point) or finished (after it) by the next store, which says so.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeJournal, type RestoreJournal } from '../../../extension/core/checkpoints/restore-journal';
import { bundleChild, startChild } from './child-process';
import { checkpointWorld, exists, newStore, read, signal, write } from './world';

const SID = '7e57ab1e-0000-4000-8000-00000000a70c';

/** Every file under `dir` (path -> content), temporaries included. */
function files(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(path.join(dir, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    if (r === '.git') continue;
    const st = fs.lstatSync(path.join(dir, r));
    if (st.isDirectory()) Object.assign(out, files(dir, r));
    else out[r] = fs.readFileSync(path.join(dir, r), 'utf8');
  }
  return out;
}

describe('a restore is all or nothing (reliability N1)', function () {
  this.timeout(60_000);
  const w = checkpointWorld('sp-atomic');

  it('N1: a read-only folder stops the restore before any file changes; the error names each file, and no temporary is left', async () => {
    write(w.ws, 'a.txt', 'a at the checkpoint\n');
    for (let i = 1; i <= 3; i++) write(w.ws, `d/y${i}.txt`, `y${i} at the checkpoint\n`);
    assert.equal((await w.store.snapshot(SID, 2, signal())).ok, true);
    write(w.ws, 'a.txt', 'a appended by the turn\n');
    for (let i = 1; i <= 3; i++) write(w.ws, `d/y${i}.txt`, `y${i} appended by the turn\n`);
    write(w.ws, 'd/new.txt', 'created by the turn\n');
    const before = files(w.ws);

    // The report's case ran as nobody; a root test process restores as nobody too (root writes anywhere).
    const binDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-atomic-bin-'));
    try {
      const bundle = bundleChild(binDir);
      if (process.getuid?.() === 0) {
        fs.chmodSync(binDir, 0o755);
        execFileSync('chown', ['-R', 'nobody', w.ws, w.state]);
      }
      fs.chmodSync(path.join(w.ws, 'd'), 0o555);
      const run = await startChild(bundle, ['restore', w.ws, path.join(w.state, 'checkpoints'), SID, '2'], { SNOWPEA_TEST_AS_NOBODY: '1', HOME: binDir }).done;
      const out = JSON.parse(run.stdout.trim()) as { name?: string; error?: string };
      assert.equal(out.name, 'RestoreNotDoneError', run.stdout);
      assert.match(out.error ?? '', /^nothing was restored in .*: /);
      for (const f of ['d/y1.txt', 'd/y2.txt', 'd/y3.txt']) assert.ok(out.error?.includes(`${f} (cannot be written: permission denied (EACCES))`), `${f} is named: ${out.error}`);
      assert.ok(out.error?.includes('d/new.txt (cannot be removed: permission denied (EACCES))'), out.error);
      assert.match(out.error ?? '', /; every file is as it was$/);
      assert.ok(!out.error?.includes('a.txt ('), 'a.txt could be written: not named');
    } finally {
      fs.chmodSync(path.join(w.ws, 'd'), 0o755);
      fs.rmSync(binDir, { recursive: true, force: true });
    }
    assert.deepEqual(files(w.ws), before, 'a.txt was not restored alone; no temporary is left');
    assert.equal(fs.existsSync(w.store.lock.journalFile), false, 'no journal is left');

    // Once the folder is writable, the same restore goes through whole.
    await w.store.restoreUndoable(SID, 2, signal());
    assert.equal(read(w.ws, 'a.txt').toString(), 'a at the checkpoint\n');
    assert.equal(read(w.ws, 'd/y3.txt').toString(), 'y3 at the checkpoint\n');
    assert.ok(!exists(w.ws, 'd/new.txt'));
  });

  function leftJournal(state: RestoreJournal['state']): RestoreJournal {
    // What a restore killed part way leaves: the journal, a temporary written, a probe beside the file to remove.
    write(w.ws, 'a.txt', 'as before the restore\n');
    write(w.ws, 'made.txt', 'made since the checkpoint\n');
    write(w.ws, '.a.txt.0123456789ab-1.snowpea-restore', 'as at the checkpoint\n');
    write(w.ws, '.made.txt.0123456789ab-0.snowpea-restore', '');
    const journal: RestoreJournal = {
      version: 1,
      id: '0123456789ab',
      sessionId: SID,
      target: 'before turn 4',
      workTree: w.ws,
      state,
      ops: [
        { kind: 'delete', path: 'made.txt', probe: '.made.txt.0123456789ab-0.snowpea-restore' },
        { kind: 'write', path: 'a.txt', temp: '.a.txt.0123456789ab-1.snowpea-restore' },
      ],
    };
    fs.mkdirSync(w.store.lock.dir, { recursive: true });
    writeJournal(w.store.lock.journalFile, journal);
    return journal;
  }

  it('N1: a journal left before its commit point is rolled back at the next start, and the user is told', () => {
    leftJournal('staging');
    const store = newStore(w);
    const said = store.recoverInterrupted();
    assert.equal(said, `an interrupted restore of session ${SID} (to before turn 4) in ${w.ws} was rolled back: the 2 files it would have changed are as they were before it`);
    assert.deepEqual(w.notices, [said]);
    assert.deepEqual(files(w.ws), { 'a.txt': 'as before the restore\n', 'made.txt': 'made since the checkpoint\n' });
    assert.equal(fs.existsSync(store.lock.journalFile), false);
    assert.equal(store.recoverInterrupted(), undefined, 'said once');
  });

  it('N1: a journal left after its commit point is finished at the next turn\'s start (even with a rename already done), and the user is told', async () => {
    leftJournal('committed');
    // The kill came after the first rename.
    fs.renameSync(path.join(w.ws, '.a.txt.0123456789ab-1.snowpea-restore'), path.join(w.ws, 'a.txt'));
    const store = newStore(w);
    await store.atTurnStart(SID, 5, signal());
    store.atTurnEnd(SID);
    assert.deepEqual(files(w.ws), { 'a.txt': 'as at the checkpoint\n' });
    assert.deepEqual(w.notices, [`an interrupted restore of session ${SID} (to before turn 4) in ${w.ws} was finished: 2 files restored`]);
    assert.equal(fs.existsSync(store.lock.journalFile), false);
  });

  it('N1: a journal that is not one Snowpea wrote is moved aside and said, and nothing in the workspace is touched', () => {
    write(w.ws, 'a.txt', 'kept\n');
    fs.mkdirSync(w.store.lock.dir, { recursive: true });
    fs.writeFileSync(w.store.lock.journalFile, JSON.stringify({ version: 1, id: 'zz', ops: [{ kind: 'delete', path: '../outside', probe: 'x' }] }));
    const said = newStore(w).recoverInterrupted();
    assert.match(said ?? '', /^an interrupted restore could not be finished or rolled back \(the restore journal .* is not one Snowpea wrote: .*\); its journal is kept as .*unreadable-\d+$/);
    assert.deepEqual(files(w.ws), { 'a.txt': 'kept\n' });
  });
});
