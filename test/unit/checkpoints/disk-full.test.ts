/**
 * Reliability N9: a checkpoint that ran out of disk left the objects it had written (megabytes no
 * ref names) in the store, and then the session could not be saved. Now every object a checkpoint
 * writes goes to an incoming folder first and joins the store only once the checkpoint is whole:
 * a checkpoint that fails leaves the store exactly as it was, and the turn (and its saving) goes on.
 * The full disk is injected (SNOWPEA_FAULT_CHECKPOINT=<git command>:enospc fails that git command
 * as a full disk does, after the earlier ones wrote their objects), so no small disk is needed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../../extension/core/checkpoints';
import type { CheckpointSeam } from '../../../extension/core/conversation/checkpoint-seam';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { recordingLogger } from '../../fixtures/recording-logger';
import { checkpointWorld, signal, write } from './world';

const SID = '9d9d9d9d-0000-4000-8000-000000000009';

/** Every object file in the store (loose and packed), and anything left beside it. */
function storeFiles(gitDir: string): string[] {
  const objects = path.join(gitDir, 'objects');
  const files = fs.readdirSync(objects, { recursive: true }).map(String).filter((f) => fs.statSync(path.join(objects, f)).isFile());
  return [...files, ...fs.readdirSync(gitDir).filter((n) => /^(index|incoming)-\d+-/.test(n))].sort();
}

function withFault<T>(fault: string, fn: () => Promise<T>): Promise<T> {
  process.env.SNOWPEA_FAULT_CHECKPOINT = fault;
  return fn().finally(() => delete process.env.SNOWPEA_FAULT_CHECKPOINT);
}

describe('reliability N9: a checkpoint that hits a full disk removes what it wrote, and the session still saves', function () {
  this.timeout(120_000);
  const w = checkpointWorld('sp-n9');

  for (const command of ['write-tree', 'commit-tree']) {
    it(`N9: ENOSPC at git ${command} (after git add wrote the new files' objects): the store is as before, fsck passes, and the next checkpoint works`, async () => {
      write(w.ws, 'a.txt', 'one\n');
      assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
      const before = storeFiles(w.store.repo.gitDir);
      write(w.ws, 'big.bin', randomBytes(600 * 1024));
      write(w.ws, 'src/b.txt', 'new\n');

      const r = await withFault(`${command}:enospc`, () => w.store.snapshot(SID, 2, signal()));
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.reason, 'failed');
      assert.match(!r.ok ? r.message : '', /^could not take a checkpoint of \S+: the disk is full \(ENOSPC; git [a-z-]+ exited with code 128: error: unable to write loose object file: No space left on device\); nothing of it was kept, and the turn goes on without one$/);
      assert.deepEqual(storeFiles(w.store.repo.gitDir), before, 'no object of the failed checkpoint is left');
      assert.deepEqual((await w.store.list(SID)).map((c) => c.turn), [1]);
      execFileSync('git', ['--git-dir', w.store.repo.gitDir, 'fsck', '--full', '--no-progress'], { stdio: 'pipe' });

      assert.equal((await w.store.snapshot(SID, 2, signal())).ok, true, 'with room again, the checkpoint is taken');
      assert.deepEqual((await w.store.list(SID)).map((c) => c.turn), [1, 2]);
      assert.equal((await w.store.restorePlan(SID, 2, signal())).changes.length, 0);
    });
  }

  describe('N9 in a turn', () => {
    let h: Harness | undefined;
    let state: string | undefined;
    afterEach(async () => {
      delete process.env.SNOWPEA_FAULT_CHECKPOINT;
      await h?.close();
      if (state) fs.rmSync(state, { recursive: true, force: true });
      h = undefined;
    });

    it('N9: the turn whose checkpoint hit a full disk runs its tools, is saved in full, says why it has no checkpoint, and the store holds no object', async () => {
      state = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-n9-state-'));
      // The store needs the harness's workspace: the seam reaches it once made.
      const made: { store?: CheckpointStore } = {};
      const seam: CheckpointSeam = {
        atTurnStart: (id, turn, s) => made.store!.atTurnStart(id, turn, s),
        atTurnEnd: (id) => made.store!.atTurnEnd(id),
        forget: (id) => made.store!.forget(id),
      };
      h = await createHarness({ checkpoints: seam, files: { 'src/a.txt': 'before\n', 'data.bin': randomBytes(400 * 1024).toString('base64') } });
      const log = recordingLogger();
      const store = (made.store = new CheckpointStore({ workspaceRoot: h.workspace, dir: path.join(state, 'checkpoints'), settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': 200 }), logger: log }));
      h.server.enqueue({ toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'src/a.txt', content: 'after\n' }) }] }, { text: 'written' });
      process.env.SNOWPEA_FAULT_CHECKPOINT = 'write-tree:enospc';
      const session = h.agent.newSession();
      const result = await h.agent.runTurn(session, 'change a.txt', new AbortController().signal);

      assert.equal(result.reason, 'done');
      assert.equal(fs.readFileSync(path.join(h.workspace, 'src/a.txt'), 'utf8'), 'after\n');
      assert.ok(log.lines.some((l) => /^warn: could not take a checkpoint of .*: the disk is full/.test(l)), log.lines.join('\n'));
      const stored = h.store.getMessages(session.id);
      assert.deepEqual(stored.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant'], 'every round of the turn is saved');
      assert.deepEqual(storeFiles(store.repo.gitDir), [], 'the failed checkpoint left no object (a 400 KB file was in it)');
      assert.deepEqual(await store.list(session.id), []);
    });
  });
});
