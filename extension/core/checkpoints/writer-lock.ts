/**
 * One writer per workspace across processes (reliability N5): a restore never runs while another
 * Snowpea process (a VS Code window, a CLI `run`) is in a turn that edits the same workspace,
 * and a turn waits while another process restores it. The files live in a folder every Snowpea
 * process of the user shares (`<coordination dir>/<workspace hash>.workspace/`):
 * - `restore.lock`: held for the whole of a restore (the state.db lock's code: a record of pid,
 *   start time and host, taken atomically; a dead owner's lock is taken over), `restore.owner`
 *   saying what holds it;
 * - `edit-<pid>-<token>.json`: one per process while any of its turns runs (turns share the
 *   workspace with each other, as before), removed at the turn's end; a dead process's is ignored
 *   and cleared.
 * A turn writes its file first and then looks for the restore lock; a restore takes the lock
 * first and then looks for turns' files: whichever comes second sees the other.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { acquireLock, StateDbBusyError } from '../store/lock';
import { ownerRuns, ownRecord, readLock, type LockRecord } from '../store/lock-record';

/** How long a turn waits for another process's restore to end. */
const RESTORE_WAIT_MS = 120_000;
const POLL_MS = 100;

/** The workspace is being edited or restored by another process; names it. */
export class WorkspaceBusyError extends Error {
  constructor(
    readonly workspace: string,
    readonly pid: number | null,
    readonly what: string,
    readonly lockFile: string,
  ) {
    super(
      `${workspace} is in use by another Snowpea process (${pid === null ? 'its lock is being written' : `pid ${pid}`}: ${what}). ` +
        `Wait for it to finish, or stop it, and try again. If no Snowpea is running (after a crash), delete ${lockFile}.`,
    );
    this.name = 'WorkspaceBusyError';
  }
}

interface EditorRecord extends LockRecord {
  what: string;
}

/** Turns of this process holding a workspace, by its folder: the editor file and how many hold it. */
const editingHere = new Map<string, { file: string; count: number }>();

export class WorkspaceLock {
  constructor(
    /** `<coordination dir>/<workspace hash>.workspace`. */
    readonly dir: string,
    private readonly workspace: string,
  ) {}

  get journalFile(): string {
    return path.join(this.dir, 'restore-journal.json');
  }

  /**
   * Marks the workspace as edited by this process (`what`: "a turn of session X") until the
   * returned function runs. Waits while another process restores it; throws WorkspaceBusyError
   * when that takes longer than two minutes, or rejects with the abort of `signal`.
   */
  async beginEdits(what: string, signal: AbortSignal): Promise<() => void> {
    const held = editingHere.get(this.dir);
    if (held) {
      held.count++;
      return once(() => this.endEdits());
    }
    const deadline = Date.now() + RESTORE_WAIT_MS;
    for (;;) {
      const file = this.writeEditor(what);
      const restorer = this.liveRestorer();
      if (!restorer) {
        const again = editingHere.get(this.dir);
        if (again) {
          // Another turn of this process registered while this one looked.
          again.count++;
          fs.rmSync(file, { force: true });
        } else editingHere.set(this.dir, { file, count: 1 });
        return once(() => this.endEdits());
      }
      fs.rmSync(file, { force: true });
      if (Date.now() > deadline) throw new WorkspaceBusyError(this.workspace, restorer.pid, restorer.what, path.join(this.dir, 'restore.lock'));
      await wait(POLL_MS, signal);
    }
  }

  private endEdits(): void {
    const held = editingHere.get(this.dir);
    if (!held || --held.count > 0) return;
    editingHere.delete(this.dir);
    fs.rmSync(held.file, { force: true });
  }

  /**
   * Takes the workspace for a restore (`what`: "a restore of session X"); throws
   * WorkspaceBusyError naming the other process when one restores it or is in a turn that edits
   * it. Turns of this process are the caller's to rule out.
   */
  beginRestore(what: string): () => void {
    const release = this.takeRestoreLock(what);
    try {
      const editor = this.liveEditor();
      if (editor) throw new WorkspaceBusyError(this.workspace, editor.pid, editor.what, path.join(this.dir, path.basename(editor.file)));
      return release;
    } catch (e) {
      release();
      throw e;
    }
  }

  /** The restore lock for recovering a journal; undefined when a live process holds it (its restore is not interrupted). */
  tryRestoreLock(what: string): (() => void) | undefined {
    try {
      return this.takeRestoreLock(what);
    } catch (e) {
      if (e instanceof WorkspaceBusyError) return undefined;
      throw e;
    }
  }

  private takeRestoreLock(what: string): () => void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    let release: () => void;
    try {
      release = acquireLock(path.join(this.dir, 'restore'));
    } catch (e) {
      if (!(e instanceof StateDbBusyError)) throw e;
      throw new WorkspaceBusyError(this.workspace, e.pid, this.ownerWhat(e.pid) ?? 'a restore', e.lockFile);
    }
    const owner = path.join(this.dir, 'restore.owner');
    fs.writeFileSync(owner, JSON.stringify({ pid: process.pid, what }) + '\n');
    return once(() => {
      fs.rmSync(owner, { force: true });
      release();
    });
  }

  private ownerWhat(pid: number | null): string | undefined {
    try {
      const v = JSON.parse(fs.readFileSync(path.join(this.dir, 'restore.owner'), 'utf8')) as { pid?: unknown; what?: unknown };
      return v.pid === pid && typeof v.what === 'string' ? v.what : undefined;
    } catch {
      return undefined;
    }
  }

  private writeEditor(what: string): string {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const record: EditorRecord = { ...ownRecord(), what };
    const file = path.join(this.dir, `edit-${record.pid}-${record.token}.json`);
    fs.writeFileSync(file, JSON.stringify(record) + '\n', { mode: 0o600 });
    return file;
  }

  /** Another process's restore in progress (its lock held by a live owner). */
  private liveRestorer(): { pid: number | null; what: string } | undefined {
    const seen = readLock(path.join(this.dir, 'restore.lock'));
    if (!seen) return undefined;
    if (!seen.record) return { pid: null, what: 'a restore' };
    if (seen.record.pid === process.pid) return undefined;
    return ownerRuns(seen as typeof seen & { record: LockRecord }) ? { pid: seen.record.pid, what: this.ownerWhat(seen.record.pid) ?? 'a restore' } : undefined;
  }

  /** Another live process in a turn; dead ones' files are removed on the way. */
  private liveEditor(): (EditorRecord & { file: string }) | undefined {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return undefined;
    }
    for (const name of names) {
      if (!/^edit-\d+-[0-9a-f]+\.json$/.test(name)) continue;
      const file = path.join(this.dir, name);
      const seen = readLock(file);
      if (!seen?.record) continue;
      if (seen.record.pid === process.pid) continue;
      if (!ownerRuns(seen as typeof seen & { record: LockRecord })) {
        fs.rmSync(file, { force: true });
        continue;
      }
      let what = 'a turn';
      try {
        const v = JSON.parse(seen.raw) as { what?: unknown };
        if (typeof v.what === 'string') what = v.what;
      } catch {
        // the record parsed, so this does too
      }
      return { ...seen.record, what, file };
    }
    return undefined;
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
