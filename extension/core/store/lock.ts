/**
 * One writer per state.db: `<file>.lock` holds the owner's pid. Two VS Code windows share the
 * extension's global storage, and two writers would overwrite each other's snapshots and journal,
 * so a second opener gets StateDbBusyError (the host decides what to do). A lock whose process
 * is gone (killed, crashed) is taken over.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export class StateDbBusyError extends Error {
  constructor(
    readonly file: string,
    readonly pid: number,
  ) {
    super(`${file} is in use by another Snowpea process (pid ${pid})`);
    this.name = 'StateDbBusyError';
  }
}

const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(lock: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(lock, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock on `file` for this process; returns the release function. */
export function acquireLock(file: string): () => void {
  const key = path.resolve(file);
  const lock = `${key}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = fs.openSync(lock, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        const pid = readPid(lock);
        if ((e as NodeJS.ErrnoException).code === 'EEXIST' && pid !== null) throw new StateDbBusyError(key, pid);
        throw e;
      }
      const pid = readPid(lock);
      const mine = pid === process.pid && !heldHere.has(key);
      if (pid !== null && alive(pid) && !mine) throw new StateDbBusyError(key, pid);
      fs.rmSync(lock, { force: true });
    }
  }
  heldHere.add(key);
  return () => {
    heldHere.delete(key);
    if (readPid(lock) === process.pid) fs.rmSync(lock, { force: true });
  };
}
