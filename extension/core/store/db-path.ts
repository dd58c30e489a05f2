/**
 * Checks on the path of state.db before anything is created or read: a folder, a device or a
 * read-only file is refused with a plain sentence and left alone; a symbolic link is followed so
 * the database is written through it; errno failures around the folder become plain sentences.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PRIVATE_DIR_MODE } from '../os/private-files';

/** state.db cannot be used at this path; nothing there was changed. */
export class StateDbPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateDbPathError';
  }
}

const code = (e: unknown) => (e as NodeJS.ErrnoException)?.code;

export function notOurs(file: string, why: string): StateDbPathError {
  return new StateDbPathError(`${file} is not a Snowpea session database (${why}); refusing to touch it. Choose another path for the session database.`);
}

/** The file a symbolic link at `file` leads to (written through, even when it does not exist yet). */
export function followLinks(file: string): string {
  let p = path.resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return p;
    }
    if (!st.isSymbolicLink()) return p;
    p = path.resolve(path.dirname(p), fs.readlinkSync(p));
  }
  throw new StateDbPathError(`${file} is a chain of symbolic links that does not end; refusing to use it.`);
}

export interface PathState {
  exists: boolean;
  size: number;
}

/** What is at `file` (already followed); throws StateDbPathError for anything Snowpea must not use. */
export function checkDbPath(file: string, opts: { readOnly: boolean }): PathState {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    if (code(e) === 'ENOENT') return { exists: false, size: 0 };
    if (code(e) === 'ENOTDIR') throw notAFolder(file);
    if (code(e) === 'EACCES') throw new StateDbPathError(`Snowpea may not look into ${path.dirname(file)} (permission denied), so it cannot use ${file}.`);
    throw e;
  }
  if (st.isDirectory()) throw notOurs(file, 'it is a folder');
  if (!st.isFile()) throw notOurs(file, 'it is not a regular file');
  if (!opts.readOnly && process.platform !== 'win32' && (st.mode & 0o200) === 0) {
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    throw new StateDbPathError(
      `${file} is read-only (mode ${mode}); Snowpea will not replace it. Make it writable (chmod u+rw) or choose another path for the session database.`,
    );
  }
  return { exists: true, size: st.size };
}

function notAFolder(file: string): StateDbPathError {
  let p = path.dirname(file);
  for (let up = path.dirname(p); ; p = up, up = path.dirname(p)) {
    try {
      if (!fs.statSync(p).isDirectory()) break;
    } catch {
      // not there or not reachable: look further up
    }
    if (up === p) break;
  }
  return new StateDbPathError(`${p} is a file, not a folder, so Snowpea cannot keep its session database at ${file}.`);
}

/** Creates the folder of `file` when missing. */
export function ensureFolder(file: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    if (code(e) === 'EEXIST' || code(e) === 'ENOTDIR') throw notAFolder(file);
    if (code(e) === 'EACCES' || code(e) === 'EPERM' || code(e) === 'EROFS') throw cannotWrite(file, e);
    throw e;
  }
}

/** A plain sentence for a folder Snowpea may not write in. */
export function cannotWrite(file: string, e: unknown): StateDbPathError {
  const why = code(e) === 'EROFS' ? 'read-only file system' : 'permission denied';
  return new StateDbPathError(
    `Snowpea cannot write in ${path.dirname(file)} (${why}), so it cannot keep its session database at ${file}. Choose a folder you can write to, or fix the folder's permissions.`,
  );
}

/** Runs `fn`, turning a permission failure in the folder into a plain sentence. */
export function inFolder<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (code(e) === 'EACCES' || code(e) === 'EPERM' || code(e) === 'EROFS') throw cannotWrite(file, e);
    throw e;
  }
}
