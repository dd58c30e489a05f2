/**
 * A second Snowpea process on a workspace, for the restore fault suite and the writer-lock tests
 * (run with `node --import tsx`):
 * - `restore <ws> <dir> <session> <to>`: restores and prints `{"changes":N,"undo":"u1"}`, or
 *   `{"error":"…","name":"…"}`; SNOWPEA_FAULT_RESTORE_AFTER kills it part way.
 * - `hold-edits <ws> <dir> <session>`: a turn's start (checkpoint and hold), prints `holding`,
 *   and ends the turn when a line comes on stdin.
 * - `hold-restore <ws> <dir>`: holds the workspace's restore lock until a line comes on stdin.
 * - `checkpoint <ws> <dir> <session> <turn>`: takes that checkpoint and prints its result as JSON;
 *   SNOWPEA_FAULT_CHECKPOINT=<git command>:kill kills it part way (reliability N8).
 * With SNOWPEA_TEST_AS_NOBODY=1 a root process becomes nobody first (so permissions bind).
 */
import { CheckpointStore } from '../../../extension/core/checkpoints';

const [mode, ws, dir, sid, to] = process.argv.slice(2);
if (process.env.SNOWPEA_TEST_AS_NOBODY === '1' && process.getuid?.() === 0) {
  process.setgid!(65534);
  process.setuid!(65534);
}
const quiet = () => {};
const store = new CheckpointStore({
  workspaceRoot: ws,
  dir,
  settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': 200 }),
  logger: { error: quiet, warn: quiet, info: quiet, debug: quiet },
});
const signal = new AbortController().signal;

function nextLine(): Promise<void> {
  return new Promise((resolve) => process.stdin.once('data', () => resolve()));
}

async function main(): Promise<void> {
  if (mode === 'restore') {
    try {
      const r = await store.restoreUndoable(sid, /^u/.test(to) ? (to as `u${number}`) : Number(to), signal);
      process.stdout.write(JSON.stringify({ changes: r.changes.length, undo: r.undo }) + '\n');
    } catch (e) {
      process.stdout.write(JSON.stringify({ error: (e as Error).message, name: (e as Error).name }) + '\n');
    }
  } else if (mode === 'hold-edits') {
    await store.atTurnStart(sid, 1, signal);
    process.stdout.write('holding\n');
    await nextLine();
    store.atTurnEnd(sid);
    process.stdout.write('released\n');
  } else if (mode === 'checkpoint') {
    process.stdout.write(JSON.stringify(await store.snapshot(sid, Number(to), signal)) + '\n');
  } else if (mode === 'hold-restore') {
    const release = store.lock.beginRestore('a restore of session held-by-test');
    process.stdout.write('holding\n');
    await nextLine();
    release();
    process.stdout.write('released\n');
  } else throw new Error(`unknown mode ${mode}`);
  process.stdin.destroy();
}

void main();
