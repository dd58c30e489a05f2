/**
 * Checkpoints of a multi-root workspace (WorkspaceCheckpoints): one store per folder, changes
 * named `folder/path`, a restore that puts back every folder, its undo, and a restore that fails
 * in a later folder (another process holds it) leaving the earlier folder as it was.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore, WorkspaceBusyError, WorkspaceCheckpoints } from '../../../extension/core/checkpoints';
import { recordingLogger } from '../../fixtures/recording-logger';
import { bundleChild, startChild } from '../checkpoints/child-process';

const SID = '5a5b5c5d-1111-4222-8333-444455556666';
const OTHER = '7a7b7c7d-1111-4222-8333-444455556666';
const signal = () => new AbortController().signal;

describe('multi-root workspaces: checkpoints of every folder', function () {
  this.timeout(60_000);
  let base: string;
  let state: string;
  let web: string;
  let api: string;
  let cps: WorkspaceCheckpoints;
  let webStore: CheckpointStore;
  const rd = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
  const wr = (root: string, rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-roots-cp-')));
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-roots-cp-state-'));
    web = path.join(base, 'web');
    api = path.join(base, 'api');
    for (const root of [web, api]) {
      fs.mkdirSync(root);
      execFileSync('git', ['init', '-q'], { cwd: root });
    }
    const store = (workspaceRoot: string) =>
      new CheckpointStore({
        workspaceRoot,
        dir: path.join(state, 'checkpoints'),
        settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': 200 }),
        logger: recordingLogger(),
      });
    webStore = store(web);
    cps = new WorkspaceCheckpoints([
      { name: 'web', store: webStore },
      { name: 'api', store: store(api) },
    ]);
    wr(web, 'app.ts', 'web v1\n');
    wr(api, 'server.ts', 'api v1\n');
  });
  afterEach(() => {
    fs.rmSync(base, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });

  /** A turn that edits a file in each folder and creates one in the second. */
  async function turn(): Promise<void> {
    await cps.atTurnStart(SID, 1, signal());
    cps.atTurnEnd(SID);
    wr(web, 'app.ts', 'web v2\n');
    wr(api, 'server.ts', 'api v2\n');
    wr(api, 'new.ts', 'created\n');
  }

  it('plans and restores both folders, names the files folder/path, and the undo puts both back', async () => {
    await turn();
    const plan = await cps.restorePlan(SID, 1, signal());
    assert.deepEqual(plan.changes.map((c) => `${c.status} ${c.path}`).sort(), ['added api/new.ts', 'modified api/server.ts', 'modified web/app.ts']);
    assert.equal(cps.absPath('api/server.ts'), path.join(api, 'server.ts'));
    const done = await cps.restoreUndoable(SID, 1, signal(), plan.changes);
    assert.equal(done.changes.length, 3);
    assert.equal(rd(web, 'app.ts'), 'web v1\n');
    assert.equal(rd(api, 'server.ts'), 'api v1\n');
    assert.ok(!fs.existsSync(path.join(api, 'new.ts')));
    assert.ok(done.undo, 'one restore point undoes both folders');
    const undoPlan = await cps.restorePlan(SID, done.undo, signal());
    assert.deepEqual(undoPlan.changes.map((c) => c.path).sort(), ['api/new.ts', 'api/server.ts', 'web/app.ts']);
    await cps.restoreUndoable(SID, done.undo, signal(), undoPlan.changes);
    assert.equal(rd(web, 'app.ts'), 'web v2\n');
    assert.equal(rd(api, 'new.ts'), 'created\n');
  });

  it('restores only the files the user confirmed, in the folder each names', async () => {
    await turn();
    const done = await cps.restoreUndoable(SID, 1, signal(), [{ path: 'api/server.ts', status: 'modified' }]);
    assert.deepEqual(done.changes.map((c) => c.path), ['api/server.ts']);
    assert.equal(rd(api, 'server.ts'), 'api v1\n');
    assert.equal(rd(web, 'app.ts'), 'web v2\n', 'the first folder was not confirmed: left alone');
  });

  it('a restore refused in the second folder (another process is in a turn there) puts the first folder back', async () => {
    await turn();
    const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-roots-bin-'));
    const other = startChild(bundleChild(bundleDir), ['hold-edits', api, path.join(state, 'checkpoints'), OTHER]);
    try {
      await other.line('holding');
      await assert.rejects(cps.restoreUndoable(SID, 1, signal()), (e: Error) => {
        assert.match(e.message, /^the restore of api failed: .*another Snowpea process/);
        assert.match(e.message, /The folders restored before it were put back as they were\./);
        assert.ok(e.cause instanceof WorkspaceBusyError);
        return true;
      });
      assert.equal(rd(web, 'app.ts'), 'web v2\n', 'the first folder is as it was before the restore');
      assert.equal(rd(api, 'server.ts'), 'api v2\n');
    } finally {
      other.child.kill('SIGKILL');
      await other.done;
      fs.rmSync(bundleDir, { recursive: true, force: true });
    }
  });

  it('a folder without the checkpoint (added since) is left alone and said', async () => {
    await turn();
    const late = path.join(base, 'late');
    fs.mkdirSync(late);
    wr(late, 'x.txt', 'x\n');
    const store = new CheckpointStore({ workspaceRoot: late, dir: path.join(state, 'checkpoints'), settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': 200 }), logger: recordingLogger() });
    const three = new WorkspaceCheckpoints([{ name: 'web', store: webStore }, { name: 'late', store }]);
    const plan = await three.restorePlan(SID, 1, signal());
    assert.deepEqual(plan.changes.map((c) => c.path), ['web/app.ts']);
    assert.deepEqual(plan.leftAlone, ['late/ (this folder has no checkpoint from then)']);
  });
});
