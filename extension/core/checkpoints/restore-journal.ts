/**
 * The journal of an atomic restore (reliability N1). A restore first writes every file it puts
 * back to a temporary file of its own (in the target's folder, or the nearest existing folder
 * above it), and a zero-byte probe beside every file it removes; the journal, in state
 * `staging`, names all of them before the first is made. When every temporary is written and
 * fsync'd, the journal is rewritten in state `committed`: that atomic rename (journal file
 * fsync'd, then its folder) is the restore's COMMIT POINT. Before it, the workspace holds only
 * extra temporaries and a crash rolls back (they are removed: the files are wholly as before);
 * after it, a crash rolls forward (every rename and removal the journal names is done again,
 * each one idempotent: the files are wholly as restored). The journal goes once all is done.
 *
 * Test hook: SNOWPEA_FAULT_RESTORE_AFTER=<n> makes the process SIGKILL itself after n of these
 * steps (each temporary, probe, journal write, rename and removal counts one), so the fault suite
 * can stop a restore at every point without timing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { safeRelative } from './changes';

const Rel = z.string().refine(safeRelative, 'not a path inside the workspace');

const WriteOp = z.object({ kind: z.literal('write'), path: Rel, temp: Rel });
const DeleteOp = z.object({ kind: z.literal('delete'), path: Rel, probe: Rel });
export type WriteOp = z.infer<typeof WriteOp>;
export type DeleteOp = z.infer<typeof DeleteOp>;
export type JournalOp = WriteOp | DeleteOp;

const Journal = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[0-9a-f]{8,32}$/),
  sessionId: z.string(),
  /** `before turn 2`, `restore point u1`. */
  target: z.string(),
  workTree: z.string(),
  state: z.enum(['staging', 'committed']),
  /** Removals first, then writes (the order they are applied in). */
  ops: z.array(z.discriminatedUnion('kind', [WriteOp, DeleteOp])),
});
export type RestoreJournal = z.infer<typeof Journal>;

/** Steps done so far by this process (the fault hook counts them). */
let steps = 0;

/** One step of a restore done: under SNOWPEA_FAULT_RESTORE_AFTER=n, the n-th one kills this process. */
export function step(): void {
  const after = Number(process.env.SNOWPEA_FAULT_RESTORE_AFTER);
  if (!Number.isInteger(after) || after < 1) return;
  if (++steps >= after) process.kill(process.pid, 'SIGKILL');
}

/** Writes `journal` to `file` atomically and durably: a temporary beside it, fsync'd, renamed, the folder fsync'd. */
export function writeJournal(file: string, journal: RestoreJournal): void {
  const tmp = `${file}.${journal.id}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(journal) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  syncDir(path.dirname(file));
  step();
}

/** The journal at `file`; null when there is none; a journal that cannot be read throws (named). */
export function readJournal(file: string): RestoreJournal | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`the restore journal ${file} is not JSON`);
  }
  const parsed = Journal.safeParse(raw);
  if (!parsed.success) throw new Error(`the restore journal ${file} is not one Snowpea wrote: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

export function removeJournal(file: string): void {
  fs.rmSync(file, { force: true });
  syncDir(path.dirname(file));
  step();
}

/** fsync of a folder, so the renames and removals in it are on disk (a no-op where folders cannot be opened, as on Windows). */
export function syncDir(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    // EINVAL/EPERM on filesystems (and platforms) that cannot fsync a folder
  } finally {
    fs.closeSync(fd);
  }
}

/** What a journal's files are, in the workspace `workTree`. */
export function abs(workTree: string, rel: string): string {
  return path.join(workTree, ...rel.split('/'));
}

/** Removes the temporaries and probes `journal` names (whichever exist): the roll-back. Returns how many files the restore would have changed. */
export function rollBack(journal: RestoreJournal): number {
  for (const op of journal.ops) removeTemp(abs(journal.workTree, op.kind === 'write' ? op.temp : op.probe));
  return journal.ops.length;
}

/** Removes a temporary of ours if it is there (a file or a link, never a folder). */
export function removeTemp(file: string): void {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) fs.rmSync(file, { force: true });
}

/**
 * Does every rename and removal of a committed `journal` that is not done yet (each is safe to
 * do twice). Returns the files it could not put in place, with why; the others are done.
 */
export function rollForward(journal: RestoreJournal): Array<{ path: string; why: string }> {
  const root = journal.workTree;
  const failed: Array<{ path: string; why: string }> = [];
  const touched = new Set<string>();
  const emptied = new Set<string>();
  for (const op of journal.ops) {
    const target = abs(root, op.path);
    try {
      if (op.kind === 'delete') {
        const st = fs.lstatSync(target, { throwIfNoEntry: false });
        if (st && !st.isDirectory()) {
          fs.unlinkSync(target);
          step();
        }
        removeTemp(abs(root, op.probe));
        emptied.add(path.dirname(target));
      } else {
        const temp = abs(root, op.temp);
        if (!fs.lstatSync(temp, { throwIfNoEntry: false })) continue; // renamed before the crash
        makeFolders(root, path.dirname(target));
        const st = fs.lstatSync(target, { throwIfNoEntry: false });
        // A folder where the file goes: one emptied by the removals above (else the rename says why).
        if (st?.isDirectory()) fs.rmdirSync(target);
        fs.renameSync(temp, target);
        step();
        touched.add(path.dirname(target));
        if (path.dirname(temp) !== path.dirname(target)) touched.add(path.dirname(temp));
      }
    } catch (e) {
      failed.push({ path: op.path, why: errorWords(e) });
    }
  }
  for (const dir of emptied) removeEmptyFolders(root, dir, touched);
  for (const dir of touched) syncDir(dir);
  return failed;
}

/**
 * Finishes or rolls back the restore whose journal is `file`, as the journal says, and removes
 * the journal; one that cannot be read or acted on is moved aside. Returns what happened in a
 * sentence, or undefined when there is no journal. The caller holds the restore lock.
 */
export function recoverJournal(file: string): string | undefined {
  let message: string;
  try {
    const journal = readJournal(file);
    if (!journal) return undefined;
    const what = `an interrupted restore of session ${journal.sessionId} (to ${journal.target}) in ${journal.workTree}`;
    const n = journal.ops.length;
    if (journal.state === 'staging') {
      rollBack(journal);
      message = `${what} was rolled back: the ${n} file${n === 1 ? '' : 's'} it would have changed are as they were before it`;
    } else {
      const failed = rollForward(journal);
      const done = n - failed.length;
      message = `${what} was finished: ${done} file${done === 1 ? '' : 's'} restored`;
      if (failed.length) message += `; not restored: ${failed.slice(0, 20).map((f) => `${f.path} (${f.why})`).join(', ')}${failed.length > 20 ? `, and ${failed.length - 20} more` : ''}`;
    }
    removeJournal(file);
  } catch (e) {
    const aside = `${file}.unreadable-${Date.now()}`;
    try {
      fs.renameSync(file, aside);
    } catch {
      // leave it; the next start says so again
    }
    message = `an interrupted restore could not be finished or rolled back (${errorWords(e)}); its journal is kept as ${aside}`;
  }
  return message;
}

/** Makes the folders down to `dir` (inside `root`); a link or file in the way (created since the checkpoint) is replaced, its target untouched. */
function makeFolders(root: string, dir: string): void {
  const parts = path.relative(root, dir).split(path.sep).filter(Boolean);
  let at = root;
  for (const part of parts) {
    at = path.join(at, part);
    const st = fs.lstatSync(at, { throwIfNoEntry: false });
    if (st?.isDirectory()) continue;
    if (st?.isSymbolicLink()) fs.unlinkSync(at);
    else if (st) throw Object.assign(new Error(`${at} is a file where a folder should be`), { code: 'ENOTDIR' });
    fs.mkdirSync(at);
  }
}

/** Removes `dir` and the folders above it (never `root`) while they are empty, as git does after removing a file. */
function removeEmptyFolders(root: string, dir: string, synced: Set<string>): void {
  for (let at = dir; at !== root && at.startsWith(root + path.sep); at = path.dirname(at)) {
    try {
      fs.rmdirSync(at);
      synced.add(path.dirname(at));
    } catch {
      return; // not empty (or gone)
    }
  }
}

/** `permission denied (EACCES)`: an fs error in a few words. */
export function errorWords(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const words: Record<string, string> = { EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'read-only file system', ENOSPC: 'the disk is full', EDQUOT: 'over the disk quota', ENOTDIR: 'a file is where a folder should be', ENOTEMPTY: 'a folder that is not empty is in the way', EISDIR: 'a folder is in the way', ENAMETOOLONG: 'the name is too long' };
  return err?.code && words[err.code] ? `${words[err.code]} (${err.code})` : (err?.message ?? String(e));
}
