/**
 * Undo's writes: a file's earlier bytes put back, or a file the agent created deleted, only at
 * the place the agent wrote. The name may have changed since (a pulled branch, a later command):
 * when it is now a symbolic link, or its folder now resolves elsewhere, Undo refuses rather
 * than write or delete through the link, and the final open never follows one (O_NOFOLLOW).
 */
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** The real folder of `abs` now; undefined when it is gone. */
export async function realFolder(abs: string): Promise<string | undefined> {
  try {
    return await fs.realpath(path.dirname(abs));
  } catch {
    return undefined;
  }
}

/**
 * Puts `before` back at `abs` (null: deletes the file the agent created). `folder`: the real
 * folder the file was in when the agent wrote it. Throws with the reason when the path is no
 * longer that file.
 */
export async function undoWrite(abs: string, before: Uint8Array | null, folder: string): Promise<void> {
  await checkFolder(abs, folder, before !== null);
  const st = await fs.lstat(abs).catch(() => undefined);
  if (st?.isSymbolicLink()) {
    const target = await fs.readlink(abs).catch(() => '?');
    throw new Error(`${path.basename(abs)} is now a symbolic link (to ${target}); Undo does not write through it, so nothing was changed`);
  }
  if (st && !st.isFile()) throw new Error(`${path.basename(abs)} is no longer a regular file; nothing was changed`);
  if (before === null) {
    if (st) await fs.unlink(abs);
    return;
  }
  const file = await fs.open(abs, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o666);
  try {
    await file.writeFile(before);
  } finally {
    await file.close();
  }
}

/** The folder must still be the one the agent wrote in (recreated when it is gone and a file goes back into it). */
async function checkFolder(abs: string, folder: string, recreate: boolean): Promise<void> {
  let now = await realFolder(abs);
  if (now === undefined && recreate) {
    await fs.mkdir(path.dirname(abs), { recursive: true });
    now = await realFolder(abs);
  }
  if (now !== undefined && now !== folder) {
    throw new Error(`its folder now leads to ${now}, not to ${folder} where Snowpea wrote it; Undo does not follow it, so nothing was changed`);
  }
}
