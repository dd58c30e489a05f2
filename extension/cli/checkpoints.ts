/**
 * Checkpoints on the command line: `sessions checkpoints ID`, `sessions restore ID --to N`
 * (or `--to uN`, a restore point: the files as they were just before an earlier restore, which
 * every restore takes first, reliability N6), and the diff stat `run` ends a turn with (the store is made in setup.ts, beside state.db).
 */
import type { CheckpointSeam } from '../core/conversation/checkpoint-seam';
import { nestedLine, NoCheckpointError, othersWords, parseTarget, RestoreNotDoneError, WorkspaceBusyError, type CheckpointStore, type RestorePlan, type RestoreTarget, type TurnReport } from '../core/checkpoints';
import type { Logger } from '../core/log';
import type { StateDb } from '../core/store';
import { onStopSignals } from './process-exit';
import { interactive, terminalConfirm } from './terminal';
import { oneLine } from './terminal-text';

/**
 * The CLI's checkpoint seam: each session's checkpoints are of its own workspace (a session
 * resumed with --session works in the folder it started in, wherever the CLI runs).
 */
export class CliCheckpoints implements CheckpointSeam {
  private readonly stores = new Map<string, CheckpointStore>();

  constructor(
    private readonly make: (workspaceRoot: string) => CheckpointStore,
    private readonly workspaceOf: (sessionId: string) => string,
  ) {}

  storeFor(workspaceRoot: string): CheckpointStore {
    let store = this.stores.get(workspaceRoot);
    if (!store) this.stores.set(workspaceRoot, (store = this.make(workspaceRoot)));
    return store;
  }

  atTurnStart(sessionId: string, turn: number, signal: AbortSignal): Promise<void> {
    return this.storeFor(this.workspaceOf(sessionId)).atTurnStart(sessionId, turn, signal);
  }

  atTurnEnd(sessionId: string): void {
    this.storeFor(this.workspaceOf(sessionId)).atTurnEnd(sessionId);
  }

  forget(sessionId: string): Promise<void> {
    return this.storeFor(this.workspaceOf(sessionId)).forget(sessionId);
  }
}

/** The flags these commands read (the common ones they need; setup.ts's CommonFlags has them all). */
export interface CheckpointFlags {
  'state-db'?: string;
  settings?: string;
  yes?: boolean;
  verbose?: boolean;
  json?: boolean;
  to?: string;
}

const HOW = { added: 'added since, removed', modified: 'modified, rewritten', deleted: 'deleted since, recreated' } as const;

/**
 * `snowpea sessions checkpoints ID`: each checkpoint's turn, time, message line and the files
 * changed since, then each restore point (`u1`, ...: "before restore to N"), which undoes a restore.
 */
export async function listCheckpoints(db: StateDb, id: string, store: CheckpointStore, flags: CheckpointFlags, log: Logger): Promise<number> {
  const list = await store.list(id, db.getMessages(id));
  const signal = new AbortController().signal;
  const rows: Array<{ turn: number | string; time: string; message: string; changedSince: unknown[] }> = [];
  for (const c of list) rows.push({ turn: c.turn, time: new Date(c.time).toISOString(), message: c.message ?? '', changedSince: await store.changedSince(id, c.turn, signal) });
  for (const p of await store.restorePoints(id)) {
    rows.push({ turn: p.name, time: new Date(p.time).toISOString(), message: `before restore to ${p.before ?? '?'}`, changedSince: await store.changedSince(id, p.name, signal) });
  }
  if (flags.json) process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
  else if (!rows.length) log.warn(`session ${id} has no checkpoints (they are kept before each message while checkpoints.enabled is on)`);
  else {
    process.stdout.write(`checkpoints of session ${id} in ${oneLine(store.repo.workTree)}:\n`);
    for (const r of rows) {
      const n = r.changedSince.length;
      process.stdout.write(`${String(r.turn).padStart(4)}  ${r.time.slice(0, 16).replace('T', ' ')}  ${`${n} file${n === 1 ? '' : 's'} changed since`.padEnd(22)}  ${oneLine(r.message)}\n`);
    }
  }
  return 0;
}

/** `snowpea sessions restore ID --to N`: lists what it will change, asks (or takes --yes), then restores. */
export async function restoreCheckpoint(db: StateDb, id: string, store: CheckpointStore, flags: CheckpointFlags, log: Logger): Promise<number> {
  const to = parseTarget(flags.to);
  if (to === undefined) {
    log.error(`snowpea sessions restore needs --to N, the turn to go back to before (a whole number from 1), or --to uN, a restore point that undoes an earlier restore (see: snowpea sessions checkpoints ${id})`);
    return 1;
  }
  const controller = new AbortController();
  const stop = onStopSignals(controller);
  try {
    let plan: RestorePlan;
    try {
      plan = await store.restorePlan(id, to, controller.signal);
    } catch (e) {
      if (!(e instanceof NoCheckpointError)) throw e;
      log.error(`${e.message} (see: snowpea sessions checkpoints ${id})`);
      return 1;
    }
    const before = await targetLine(db, id, store, to);
    const { changes } = plan;
    if (!changes.length) {
      process.stdout.write(`nothing to restore: the files in ${oneLine(store.repo.workTree)} are as they were ${before}\n`);
      writeLeftAlone(plan.leftAlone);
      writeOutside(plan, before);
      return 0;
    }
    process.stdout.write(`restoring ${oneLine(store.repo.workTree)} to ${before} changes ${changes.length} file${changes.length === 1 ? '' : 's'}:\n`);
    // File names are the workspace's (a model can create any): one escaped line each, so none can erase another (red-team N1, K10).
    // Removals first (the store's order), every one named.
    for (const c of changes) process.stdout.write(`  ${oneLine(c.path)}  (${HOW[c.status]})\n`);
    writeLeftAlone(plan.leftAlone);
    writeOutside(plan, before);
    if (!flags.yes) {
      if (!interactive()) {
        log.error('not restored: there is no terminal to ask for confirmation; add --yes to restore these files');
        return 1;
      }
      const deleted = changes.filter((c) => c.status === 'added').length;
      if (!(await terminalConfirm(`Restore ${changes.length === 1 ? 'this file' : `these ${changes.length} files`}${deleted ? ` (deleting ${deleted})` : ''}?`))) {
        process.stdout.write('not restored\n');
        return 1;
      }
    }
    // Only what was listed: a file made since the question is not deleted unseen.
    let restored;
    try {
      restored = await store.restoreUndoable(id, to, controller.signal, changes);
    } catch (e) {
      // Another process edits the workspace, or a file cannot be written: nothing was changed (reliability N1, N5).
      if (!(e instanceof WorkspaceBusyError || e instanceof RestoreNotDoneError) || stop.received) throw e;
      log.error(`not restored: ${e.message}`);
      return 1;
    }
    const n = restored.changes.length;
    // The point first: "restored N files" stays the last line.
    if (restored.undo) process.stdout.write(`kept the files as they were in restore point ${restored.undo} (to undo this restore: snowpea sessions restore ${id} --to ${restored.undo})\n`);
    process.stdout.write(`restored ${n} file${n === 1 ? '' : 's'}\n`);
    return 0;
  } catch (e) {
    if (stop.received) return stop.exitCode(1);
    throw e;
  } finally {
    stop.dispose();
  }
}

/** `before turn 2 ("fix the tests")`, `just before the restore to 2 (restore point u1)`: what a restore goes back to. */
async function targetLine(db: StateDb, id: string, store: CheckpointStore, to: RestoreTarget): Promise<string> {
  if (typeof to === 'number') {
    const line = (await store.list(id, db.getMessages(id))).find((c) => c.turn === to)?.message;
    return `before turn ${to}${line ? ` ("${oneLine(line)}")` : ''}`;
  }
  const point = (await store.restorePoints(id)).find((p) => p.name === to);
  return `just before the restore to ${point?.before ?? '?'} (restore point ${to})`;
}

/** The files a restore leaves alone because no checkpoint held them (red-team N6): named, so nothing is silently skipped. */
function writeLeftAlone(paths: readonly string[]): void {
  if (!paths.length) return;
  process.stdout.write(`left alone, as the checkpoint could not hold them (over checkpoints.maxFileMB, or excluded by the .gitignore it was taken under):\n`);
  for (const p of paths) process.stdout.write(`  ${oneLine(p)}\n`);
}

/**
 * What a restore does not cover or cannot tell apart: nested repositories changed since (left as
 * they are; reliability N7), and other Snowpea sessions that edited the workspace since (their
 * changes are in the list, and undone with the rest; N13).
 */
function writeOutside(plan: RestorePlan, before: string): void {
  if (plan.nested.length) process.stdout.write(`${oneLine(nestedLine(plan.nested, `since ${before}`))}\n`);
  if (plan.others.length && plan.changes.length) {
    process.stdout.write(`other Snowpea sessions edited this workspace since ${before}; their changes to the files above are undone too: ${oneLine(othersWords(plan.others))}\n`);
  }
}

/**
 * After a `run` turn: the files it changed since its checkpoint, the nested repositories changed
 * meanwhile and other sessions' turns on the workspace; undefined when it had no checkpoint (or
 * they could not be read).
 */
export async function turnChanges(store: CheckpointStore | undefined, sessionId: string, turn: number, log: Logger): Promise<TurnReport | undefined> {
  if (!store) return undefined;
  try {
    return await store.turnReport(sessionId, turn, new AbortController().signal);
  } catch (e) {
    if (!(e instanceof NoCheckpointError)) log.warn(`could not list the files this turn changed: ${(e as Error).message}`);
    return undefined;
  }
}

/**
 * The lines after a turn's diff stat: nested repositories it does not cover (reliability N7),
 * and other sessions that edited the workspace during the turn, whose files it lists too (N13).
 */
export function turnNotes(report: TurnReport | undefined): string[] {
  if (!report) return [];
  return [
    ...(report.nested.length ? [nestedLine(report.nested, 'during this turn')] : []),
    ...(report.others.length && report.files.length
      ? [`other Snowpea sessions were editing this workspace during this turn, so these files may include their changes: ${othersWords(report.others)}`]
      : []),
  ].map(oneLine);
}
