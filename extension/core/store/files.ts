/**
 * File moves for state.db: atomic replacement (write a temporary file, fsync, rename over) in a
 * blocking and a non-blocking flavour, moving a damaged file aside, and sweeping leftover temps.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PRIVATE_FILE_MODE } from './modes';

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

export function writeFileAtomicSync(file: string, bytes: Uint8Array): void {
  const tmp = tempName(file);
  const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    fs.writeSync(fd, bytes);
    fs.fdatasyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  syncDir(path.dirname(file));
}

/** The same, off the event loop: the bytes are written by libuv's thread pool. */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const tmp = tempName(file);
  const fh = await fs.promises.open(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    await fh.writeFile(bytes);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await fs.promises.rename(tmp, file);
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
    if (n.startsWith(`${base}.tmp-`) || n === `${base}.journal.tmp`) {
      try {
        fs.unlinkSync(path.join(dir, n));
      } catch {
        // another process may be using it; leave it
      }
    }
  }
}
