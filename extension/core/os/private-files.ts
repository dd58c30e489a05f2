/**
 * Snowpea's own files and folders (state.db and what lies beside it, scratch output, attachments)
 * hold transcripts, outputs and images: readable and writable by the user only.
 */
import * as fs from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Narrows an existing file or folder made before modes were set (0644/0755) to the user only. Best effort. */
export function narrowMode(p: string, mode: number): void {
  if (process.platform === 'win32') return;
  try {
    if ((fs.statSync(p).mode & 0o077) !== 0) fs.chmodSync(p, mode);
  } catch {
    /* missing, or not ours: leave it */
  }
}

/** Creates `dir` (and missing parents) as 0700, and narrows an existing one to 0700 (it is Snowpea's own folder). */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrowMode(dir, PRIVATE_DIR_MODE);
}
