/**
 * One writer per state.db: `<file>.lock` names its owner (lock-record.ts). Two VS Code windows
 * share the extension's global storage, and two writers would overwrite each other's snapshots
 * and journal, so a second opener gets StateDbBusyError (the host decides what to do).
 *
 * Taking the lock is atomic: the record is written to a temporary file first and hard-linked to
 * the lock's name, which fails when a lock exists, so nobody ever sees a half-written lock. A lock
 * whose exact owner (pid and start time) is gone is stale. Taking it over happens under a second,
 * short-lived lock (`<file>.lock.takeover`): the taker checks that the lock is still the stale one
 * it judged, renames it to a name of its own (only one rename can move it) and links its own.
 * Nothing else ever removes a lock but its owner, so two processes can never both hold it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ownerRuns, ownRecord, readLock, type LockRecord, type LockSeen } from './lock-record';

/** An empty or unreadable lock this young may be one being written: it counts as held. */
const YOUNG_LOCK_MS = 5000;
const ATTEMPTS = 200;

export class StateDbBusyError extends Error {
  constructor(
    readonly file: string,
    /** The holder's pid; null when the lock does not say (yet). */
    readonly pid: number | null,
    readonly lockFile = `${file}.lock`,
  ) {
    super(
      `${file} is in use by another Snowpea process (${pid === null ? 'its lock is being written' : `pid ${pid}`}; lock file ${lockFile}). ` +
        `Wait for it to finish, or stop it. If no Snowpea is running (after a crash or a restart), delete ${lockFile} and try again. ` +
        `Reading sessions (snowpea sessions list, show, export) works meanwhile.`,
    );
    this.name = 'StateDbBusyError';
  }
}

/** Locks held by this process, by database path: the token of each. */
const heldHere = new Map<string, string>();

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Writes `record` beside `lock` under a name of its own; the caller links and removes it. */
function writeTemp(lock: string, record: LockRecord): string {
  const tmp = `${lock}.${record.token}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(record) + '\n', { mode: 0o600, flag: 'wx' });
  return tmp;
}

/** Links `tmp` to `lock`; false when a lock exists. */
function tryLink(tmp: string, lock: string): boolean {
  try {
    fs.linkSync(tmp, lock);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

type Verdict = 'held' | 'stale' | 'mine';

function judge(seen: LockSeen, key: string): Verdict {
  if (!seen.record) return Date.now() - seen.mtimeMs < YOUNG_LOCK_MS ? 'held' : 'stale';
  if (heldHere.get(key) === seen.record.token) return 'held'; // a second store on the file in this process
  if (seen.record.pid === process.pid && seen.record.start === ownRecord().start) return 'mine'; // left by this process
  return ownerRuns(seen as LockSeen & { record: LockRecord }) ? 'held' : 'stale';
}

const same = (a: LockSeen | null, b: LockSeen) => a !== null && a.ino === b.ino && a.raw === b.raw;

/** Moves the file at `p` out of the way if it is still `seen`; false when something else is there now. */
function removeIfSame(p: string, seen: LockSeen, token: string): boolean {
  const aside = `${p}.stale-${token}`;
  try {
    fs.renameSync(p, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  const moved = readLock(aside);
  if (moved && moved.ino === seen.ino && moved.raw === seen.raw) {
    fs.rmSync(aside, { force: true });
    return true;
  }
  // Not the file judged stale (it was replaced meanwhile): put it back where it was.
  try {
    fs.linkSync(aside, p);
  } catch {
    // something newer took its place; that owner holds it now
  }
  fs.rmSync(aside, { force: true });
  return false;
}

/** Replaces the stale lock `seen` with ours, under the takeover lock. False: try again. */
function takeOver(lock: string, seen: LockSeen, me: LockRecord, key: string): boolean {
  const guard = `${lock}.takeover`;
  const tmp = writeTemp(guard, me);
  try {
    if (!tryLink(tmp, guard)) {
      const other = readLock(guard);
      // A taker that died inside its few milliseconds under the guard leaves it behind.
      if (other && judge(other, key) !== 'held') removeIfSame(guard, other, me.token);
      return false;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  try {
    if (!same(readLock(lock), seen)) return false;
    return removeIfSame(lock, seen, me.token);
  } finally {
    if (readLock(guard)?.record?.token === me.token) fs.rmSync(guard, { force: true });
  }
}

/** Takes the lock on `file` for this process; returns the release function. Throws StateDbBusyError when another process holds it. */
export function acquireLock(file: string): () => void {
  const key = path.resolve(file);
  const lock = `${key}.lock`;
  const me = ownRecord();
  const tmp = writeTemp(lock, me);
  try {
    let last: LockSeen | null = null;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (tryLink(tmp, lock)) {
        heldHere.set(key, me.token);
        return () => {
          if (heldHere.get(key) === me.token) heldHere.delete(key);
          if (readLock(lock)?.record?.token === me.token) fs.rmSync(lock, { force: true });
        };
      }
      const seen = readLock(lock);
      if (!seen) continue; // released meanwhile
      last = seen;
      if (judge(seen, key) === 'held') throw new StateDbBusyError(key, seen.record?.pid ?? null, lock);
      if (!takeOver(lock, seen, me, key)) sleep(2 + Math.floor(Math.random() * 5));
    }
    throw new StateDbBusyError(key, last?.record?.pid ?? null, lock);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
