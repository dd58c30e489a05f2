/**
 * A file write that lands on the name it was given and nothing else: the final open never
 * follows a symbolic link (O_NOFOLLOW, where the platform has it), and a file that is to be
 * created is created, never an existing one (or a dangling link's target) replaced (O_EXCL).
 * The caller has already resolved the name to its real path; a link found there now was put
 * there since, and the write fails with that said.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const { O_WRONLY, O_CREAT, O_EXCL, O_TRUNC } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export async function writeNoFollow(absPath: string, bytes: Uint8Array, opts: { created?: boolean; signal?: AbortSignal } = {}): Promise<void> {
  await fs.promises.mkdir(path.dirname(absPath), { recursive: true });
  let file: fs.promises.FileHandle;
  try {
    file = await fs.promises.open(absPath, O_WRONLY | O_CREAT | (opts.created ? O_EXCL : O_TRUNC) | O_NOFOLLOW, 0o666);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new Error(`${absPath} is now a symbolic link; the write does not follow it, so nothing was written`, { cause: e });
    if (code === 'EEXIST') throw new Error(`${absPath} exists now (a file or a link appeared there), and the write was to create it, so nothing was written`, { cause: e });
    throw e;
  }
  try {
    await file.writeFile(bytes, { signal: opts.signal });
  } finally {
    await file.close();
  }
}
