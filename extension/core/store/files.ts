/**
 * File moves for state.db: atomic replacement (write a temporary file, fsync, rename over) in a
 * blocking and a non-blocking flavour, moving a damaged file aside, and sweeping leftover temps.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PRIVATE_FILE_MODE } from '../os/private-files';

function tempName(file: string): string {
  return `${file}.tmp-${process.pid}`;
}

/** Makes a rename durable where the platform allows it (not on Windows, where opening a folder fails). */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Test hook: called before each write of state.db, its journal or a content file, with the file
 * written; a throw stands for the disk refusing it (e.g. an ENOSPC error).
 */
export const writeFaults: { before: ((file: string) => void) | null } = { before: null };

export function checkWriteFault(file: string): void {
  writeFaults.before?.(file);
}

/** Says plainly why saving to `file` failed (one sentence), keeping the errno code. */
export function saveError(file: string, e: unknown): Error {
  const err = e as NodeJS.ErrnoException;
  if (err?.message?.startsWith('could not save the session')) return err;
  const why: Record<string, string> = {
    ENOSPC: 'the disk is full (ENOSPC)',
    EDQUOT: 'the disk quota is used up (EDQUOT)',
    EROFS: 'the file system is read-only (EROFS)',
    EACCES: 'permission denied (EACCES)',
    EPERM: 'permission denied (EPERM)',
    EIO: 'the disk reported an input/output error (EIO)',
  };
  const out = new Error(`could not save the session to ${file}: ${why[err?.code ?? ''] ?? err?.message ?? String(e)}`) as NodeJS.ErrnoException;
  out.code = err?.code;
  return out;
}

export function writeFileAtomicSync(file: string, bytes: Uint8Array): void {
  const tmp = tempName(file);
  try {
    const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      checkWriteFault(file);
      fs.writeSync(fd, bytes);
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  syncDir(path.dirname(file));
}

/** The same, off the event loop: the bytes are written by libuv's thread pool. A failed write leaves no temporary file. */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const tmp = tempName(file);
  try {
    const fh = await fs.promises.open(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      checkWriteFault(file);
      await fh.writeFile(bytes);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  syncDir(path.dirname(file));
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, '-');
}

/** Renames a damaged file to `<file>.corrupt-<time>` (never deletes it) and returns the new path. */
export function moveAside(file: string, now: Date): string {
  let target = `${file}.corrupt-${stamp(now)}`;
  for (let i = 2; fs.existsSync(target); i++) target = `${file}.corrupt-${stamp(now)}-${i}`;
  fs.renameSync(file, target);
  return target;
}

/** A lock's temporary or set-aside file (lock.ts), left by a process killed while taking the lock. */
function lockLeftover(base: string, n: string): boolean {
  return n.startsWith(`${base}.lock.`) && (n.endsWith('.tmp') || n.includes('.stale-'));
}

/** Removes temporary files a killed process left beside `file` (never the database or journal itself). */
export function removeStaleTemps(file: string): void {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    if (lockLeftover(base, n)) {
      // One being taken right now is young; only those a minute old are leftovers.
      try {
        if (Date.now() - fs.statSync(path.join(dir, n)).mtimeMs > 60_000) fs.unlinkSync(path.join(dir, n));
      } catch {
        // gone already
      }
      continue;
    }
    if (n.startsWith(`${base}.tmp-`) || n === `${base}.journal.tmp`) {
      try {
        fs.unlinkSync(path.join(dir, n));
      } catch {
        // another process may be using it; leave it
      }
    }
  }
}
