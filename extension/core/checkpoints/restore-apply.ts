/**
 * An all-or-nothing restore (reliability N1): every file is first written from the shadow store
 * to a temporary file beside it and fsync'd, and a probe proves each file to remove can be;
 * only then is the journal committed and the temporaries renamed into place (restore-journal.ts
 * holds the journal, its commit point and the recovery). A file that cannot be written (a
 * read-only folder, a full disk) stops the restore before its commit point with every
 * temporary removed: the files are wholly as they were, and the error names each one.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileChange } from './changes';
import { abs, errorWords, removeJournal, rollBack, rollForward, step, writeJournal, type JournalOp, type RestoreJournal, type WriteOp } from './restore-journal';
import { nulList, shadowGit, shadowGitChunks, type ShadowRepo } from './shadow-git';

/** Most files an error names. */
const MAX_NAMED = 20;

export interface AtomicRestore {
  repo: ShadowRepo;
  /** The checkpoint (or restore point) commit the files come from. */
  commit: string;
  /** What to do, removals first (byRestoreOrder). */
  changes: readonly FileChange[];
  journalFile: string;
  sessionId: string;
  /** `before turn 2`: for the recovery's notice. */
  target: string;
  /** Before the commit point, an abort rolls back; after it, the restore finishes. */
  signal: AbortSignal;
}

/** A restore that changed nothing: `files` could not be written or removed (each with why). */
export class RestoreNotDoneError extends Error {
  constructor(
    readonly files: ReadonlyArray<{ path: string; why: string }>,
    workTree: string,
  ) {
    super(`nothing was restored in ${workTree}: ${namedList(files)}; every file is as it was`);
    this.name = 'RestoreNotDoneError';
  }
}

/** A restore cut short after its commit point by files that could not be put in place. */
export class RestorePartlyDoneError extends Error {
  constructor(
    readonly files: ReadonlyArray<{ path: string; why: string }>,
    done: number,
  ) {
    super(`${done} file${done === 1 ? ' was' : 's were'} restored, but not ${namedList(files)}`);
    this.name = 'RestorePartlyDoneError';
  }
}

function namedList(files: ReadonlyArray<{ path: string; why: string }>): string {
  const named = files.slice(0, MAX_NAMED).map((f) => `${f.path} (${f.why})`).join(', ');
  return files.length > MAX_NAMED ? `${named}, and ${files.length - MAX_NAMED} more` : named;
}

/** Restores `changes` from `commit` all at once, or not at all (see the file's comment). */
export async function restoreAtomically(o: AtomicRestore): Promise<void> {
  const root = o.repo.workTree;
  const id = randomBytes(6).toString('hex');
  const ops: JournalOp[] = o.changes.map((c, n) => {
    const name = `.${shortName(path.posix.basename(c.path))}.${id}-${n}.snowpea-restore`;
    const dir = path.posix.dirname(c.path);
    if (c.status === 'added') return { kind: 'delete', path: c.path, probe: joinRel(dir, name) };
    return { kind: 'write', path: c.path, temp: joinRel(stagingDir(root, dir), name) };
  });
  const journal: RestoreJournal = { version: 1, id, sessionId: o.sessionId, target: o.target, workTree: root, state: 'staging', ops };
  const writes = ops.filter((op): op is WriteOp => op.kind === 'write');
  const blobs = writes.length ? await treeEntries(o.repo, o.commit, new Set(writes.map((w) => w.path)), o.signal) : new Map<string, Entry>();
  writeJournal(o.journalFile, journal);
  const failed: Array<{ path: string; why: string }> = [];
  try {
    for (const op of ops) {
      if (op.kind !== 'delete') continue;
      try {
        fs.writeFileSync(abs(root, op.probe), '', { flag: 'wx' });
        step();
      } catch (e) {
        failed.push({ path: op.path, why: `cannot be removed: ${errorWords(e)}` });
      }
    }
    if (writes.length) await stageWrites(o, writes, blobs, failed);
    if (failed.length) throw new RestoreNotDoneError(failed, root);
    o.signal.throwIfAborted();
    writeJournal(o.journalFile, { ...journal, state: 'committed' });
  } catch (e) {
    rollBack(journal);
    removeJournal(o.journalFile);
    throw e;
  }
  // Past the commit point: finish, whatever happens to the signal.
  const notPlaced = rollForward({ ...journal, state: 'committed' });
  removeJournal(o.journalFile);
  if (notPlaced.length) throw new RestorePartlyDoneError(notPlaced, ops.length - notPlaced.length);
}

interface Entry {
  mode: string;
  oid: string;
}

/** The mode and blob of each of `paths` in `commit`'s tree. */
async function treeEntries(repo: ShadowRepo, commit: string, paths: ReadonlySet<string>, signal: AbortSignal): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  for (const row of nulList(await shadowGit(repo, ['ls-tree', '-r', '-z', '--full-tree', commit], { signal }))) {
    const m = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(row);
    if (m && paths.has(m[3])) entries.set(m[3], { mode: m[1], oid: m[2] });
  }
  return entries;
}

/** Writes each temporary from the shadow store (one `cat-file --batch` for all), fsync'd; a file that cannot be written goes on `failed`. */
async function stageWrites(o: AtomicRestore, writes: readonly WriteOp[], blobs: Map<string, Entry>, failed: Array<{ path: string; why: string }>): Promise<void> {
  const root = o.repo.workTree;
  const queue: Array<{ op: WriteOp; entry: Entry }> = [];
  for (const op of writes) {
    const entry = blobs.get(op.path);
    if (entry) queue.push({ op, entry });
    else failed.push({ path: op.path, why: 'the checkpoint does not hold it' });
  }
  if (!queue.length) return;
  let at = 0;
  let sink: Sink | undefined;
  let need = -1; // bytes of the current body still to come; -1: a header is next
  let pending: Buffer = Buffer.alloc(0);
  const input = queue.map((q) => `${q.entry.oid}\n`).join('');
  for await (const chunk of shadowGitChunks(o.repo, ['cat-file', '--batch'], input, o.signal)) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length) {
      if (need < 0) {
        const nl = pending.indexOf(0x0a);
        if (nl < 0) break;
        const header = pending.subarray(0, nl).toString();
        pending = pending.subarray(nl + 1);
        const size = /^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1];
        const item = queue[at];
        if (size === undefined || !item) throw new Error(`git cat-file gave an unexpected answer: ${header.slice(0, 200)}`);
        need = Number(size);
        sink = await openSink(abs(root, item.op.temp), item.entry.mode).catch((e: unknown) => {
          failed.push({ path: item.op.path, why: `cannot be written: ${errorWords(e)}` });
          return undefined;
        });
      }
      if (need > 0) {
        const part = pending.subarray(0, need);
        pending = pending.subarray(part.length);
        need -= part.length;
        await sink?.write(part);
        if (need > 0) break;
      }
      // The body is whole; a newline follows it.
      if (!pending.length) break;
      pending = pending.subarray(1);
      need = -1;
      const item = queue[at++];
      if (sink && item) {
        await sink.finish().catch((e: unknown) => failed.push({ path: item.op.path, why: `cannot be written: ${errorWords(e)}` }));
        step();
      }
      sink = undefined;
    }
  }
  if (at !== queue.length) throw new Error(`git cat-file ended after ${at} of ${queue.length} files`);
}

interface Sink {
  write(b: Buffer): Promise<void>;
  /** Flushes and closes (fsync'd); a link is made here. */
  finish(): Promise<void>;
}

/** A temporary for a file of `mode`: a regular file (0666 or 0777 under the umask, as git makes them) or a symbolic link. */
async function openSink(file: string, mode: string): Promise<Sink> {
  if (mode === '120000') {
    const parts: Buffer[] = [];
    return { write: async (b) => void parts.push(Buffer.from(b)), finish: () => fs.promises.symlink(Buffer.concat(parts).toString(), file) };
  }
  const fh = await fs.promises.open(file, 'wx', mode === '100755' ? 0o777 : 0o666);
  let failure: unknown;
  return {
    write: async (b) => {
      if (failure) return;
      try {
        await fh.write(b);
      } catch (e) {
        failure = e;
      }
    },
    finish: async () => {
      try {
        if (failure) throw failure;
        await fh.sync();
      } finally {
        await fh.close();
      }
    },
  };
}

/** The deepest folder of `dir` (relative) that exists as a real folder now: where a temporary goes when its own folder does not exist yet. */
function stagingDir(root: string, dir: string): string {
  let at = '';
  for (const part of dir === '.' ? [] : dir.split('/')) {
    const next = joinRel(at, part);
    if (!fs.lstatSync(abs(root, next), { throwIfNoEntry: false })?.isDirectory()) break;
    at = next;
  }
  return at;
}

function joinRel(dir: string, name: string): string {
  return dir === '' || dir === '.' ? name : `${dir}/${name}`;
}

/** A file name short enough that the temporary's name stays under the 255-byte limit. */
function shortName(name: string): string {
  return Buffer.byteLength(name) > 160 ? name.slice(0, 40) : name;
}
