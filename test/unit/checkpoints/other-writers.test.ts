/**
 * Reliability N13: two Snowpea processes (each with its own state.db) edited one workspace at
 * once, and each diff stat listed the other's files as its own, unsaid; a restore of either
 * would revert both. Each turn now records its span where every Snowpea process of the user
 * looks (the coordination folder), so a diff stat and a restore name the other sessions that
 * edited the workspace meanwhile.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore, othersWords, restoreListing } from '../../../extension/core/checkpoints';
import { checkpointWorld, signal, write, type World } from './world';

const A = 'aaaaaaaa-0000-4000-8000-000000000013';
const B = 'bbbbbbbb-0000-4000-8000-000000000013';

describe('reliability N13: diff stats and restores say when other sessions changed files', function () {
  this.timeout(120_000);
  const w = checkpointWorld('sp-n13');
  let shared: string;
  let stateB: string;
  beforeEach(() => {
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-n13-coord-'));
    stateB = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-n13-stateB-'));
  });
  afterEach(() => {
    fs.rmSync(shared, { recursive: true, force: true });
    fs.rmSync(stateB, { recursive: true, force: true });
  });

  /** A store as a process with its own state.db folder (`dir`) makes it; all share the coordination folder, as ~/.snowpea/workspaces. */
  function storeIn(dir: string, world: World): CheckpointStore {
    return new CheckpointStore({
      workspaceRoot: world.ws,
      dir,
      settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': 200 }),
      logger: world.log,
      coordinationDir: shared,
    });
  }

  it('N13: two processes in turns at once: each diff stat lists both files and names the other session (the one still running as such); a restore plan names it too', async () => {
    write(w.ws, 'base.txt', 'base\n');
    const storeA = storeIn(path.join(w.state, 'checkpoints'), w);
    const storeB = storeIn(path.join(stateB, 'checkpoints'), w);
    assert.notEqual(storeA.repo.gitDir, storeB.repo.gitDir, 'two shadow stores, as with two state.dbs');

    await storeA.atTurnStart(A, 1, signal());
    await storeB.atTurnStart(B, 1, signal());
    write(w.ws, 'B-0.txt', 'b\n');
    write(w.ws, 'A-0.txt', 'a\n');
    storeB.atTurnEnd(B);
    const reportB = await storeB.turnReport(B, 1, signal());
    // B's turn is over, A's goes on.
    assert.deepEqual(reportB.files.map((f) => f.path), ['A-0.txt', 'B-0.txt']);
    assert.deepEqual(reportB.others.map((s) => [s.sessionId, s.turn, s.pid]), [[A, 1, process.pid]]);
    assert.equal(othersWords(reportB.others), `session ${A} (pid ${process.pid}, still running)`);
    storeA.atTurnEnd(A);
    const reportA = await storeA.turnReport(A, 1, signal());
    assert.deepEqual(reportA.files.map((f) => f.path), ['A-0.txt', 'B-0.txt']);
    assert.deepEqual(reportA.others.map((s) => s.sessionId), [B]);

    const plan = await storeA.restorePlan(A, 1, signal());
    assert.deepEqual(plan.others.map((s) => s.sessionId), [B]);
    assert.equal(restoreListing(plan).at(-1), `Also changed since by other Snowpea sessions, whose changes to these files are undone too: session ${B} (pid ${process.pid})`);
  });

  it('N13: another session\'s turn that ended before this turn began is not named; one that starts after it is, for a restore', async () => {
    const storeA = storeIn(path.join(w.state, 'checkpoints'), w);
    const storeB = storeIn(path.join(stateB, 'checkpoints'), w);
    await storeB.atTurnStart(B, 1, signal());
    write(w.ws, 'B-0.txt', 'b\n');
    storeB.atTurnEnd(B);
    await storeA.atTurnStart(A, 1, signal());
    write(w.ws, 'A-0.txt', 'a\n');
    storeA.atTurnEnd(A);
    assert.deepEqual((await storeA.turnReport(A, 1, signal())).others, []);

    await storeB.atTurnStart(B, 2, signal());
    write(w.ws, 'B-1.txt', 'b\n');
    storeB.atTurnEnd(B);
    assert.deepEqual((await storeA.restorePlan(A, 1, signal())).others.map((s) => [s.sessionId, s.turn]), [[B, 2]]);
  });
});
