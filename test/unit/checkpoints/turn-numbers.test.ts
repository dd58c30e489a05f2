/**
 * Reliability N12: a run killed before its first round was saved leaves the session without the
 * turn's message but with its checkpoint; the next run numbers its turn the same, and replaced
 * that checkpoint, losing the only copy of the files from before the killed run's tools. A turn
 * number's first checkpoint now stays, and the user is told.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleChild, startChild } from './child-process';
import { checkpointWorld, newStore, read, signal, write } from './world';

const SID = '12121212-0000-4000-8000-000000000012';

function refCommit(gitDir: string, ref: string): string {
  return execFileSync('git', ['--git-dir', gitDir, 'rev-parse', ref], { encoding: 'utf8' }).trim();
}

describe('reliability N12: turn numbers are never given a second checkpoint after a crash', function () {
  this.timeout(120_000);
  const w = checkpointWorld('sp-n12');
  let bundle: string;
  let bundleDir: string;

  before(() => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-n12-bin-'));
    bundle = bundleChild(bundleDir);
  });
  after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));

  it('N12: a process took turn 1\'s checkpoint, its tool edited a file, and it was SIGKILLed; the next process\'s turn 1 keeps that checkpoint, says so, and a restore to 1 brings back the files from before the killed run', async () => {
    write(w.ws, 'a.txt', 'as the user left it\n');
    const dir = path.join(w.state, 'checkpoints');
    const first = startChild(bundle, ['checkpoint', w.ws, dir, SID, '1']);
    assert.match(await first.line('"ok"'), /"ok":true/);
    first.child.kill('SIGKILL'); // before its first round was saved: no message of turn 1 is stored
    await first.done;
    const gitDir = w.store.repo.gitDir;
    const kept = refCommit(gitDir, `refs/snowpea/${SID}/1`);
    write(w.ws, 'a.txt', 'edited by the killed run\n');

    // The next run: the session has no message, so its turn is numbered 1 again.
    const next = newStore(w);
    await next.atTurnStart(SID, 1, signal());
    next.atTurnEnd(SID);
    assert.equal(refCommit(gitDir, `refs/snowpea/${SID}/1`), kept, 'the first checkpoint of turn 1 stays');
    assert.ok(
      w.notices.some((n) => new RegExp(`^turn 1 of session ${SID} was started before \\(.+ UTC\\) and stopped before its message was saved; the checkpoint from then is kept, so a restore to 1 goes back to before that attempt too$`).test(n)),
      w.notices.join('\n'),
    );
    write(w.ws, 'a.txt', 'edited by the second run\n');
    await next.restore(SID, 1, signal());
    assert.equal(read(w.ws, 'a.txt').toString(), 'as the user left it\n');
  });

  it('N12: later turns still get their own checkpoints', async () => {
    write(w.ws, 'a.txt', 'one\n');
    await w.store.atTurnStart(SID, 1, signal());
    w.store.atTurnEnd(SID);
    write(w.ws, 'a.txt', 'two\n');
    await w.store.atTurnStart(SID, 2, signal());
    w.store.atTurnEnd(SID);
    assert.deepEqual((await w.store.list(SID)).map((c) => c.turn), [1, 2]);
    assert.deepEqual(w.notices, []);
  });
});
