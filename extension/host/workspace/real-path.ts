import * as fs from 'node:fs';

/** The real path of a file (symlinks resolved), as the core's path checks use; the path itself when it does not exist. */
export function realPath(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}
