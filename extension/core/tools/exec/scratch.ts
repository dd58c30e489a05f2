/**
 * Snowpea's scratch folders (`<scratchRoot>/<sessionId>`: full outputs of shell and python runs):
 * private to the user, deleted with their session, and pruned by age. `<scratchRoot>/attachments`
 * belongs to the attachment store and is never pruned here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDir } from '../../os/private-files';

/** Scratch folders untouched for this many days are removed at startup. */
export const SCRATCH_MAX_AGE_DAYS = 7;

const KEEP = new Set(['attachments']);

/** A session id names one folder directly under the root: no separators, no dots-only names. */
function sessionFolder(scratchRoot: string, sessionId: string): string | undefined {
  if (!sessionId || /[\\/]/.test(sessionId) || /^\.+$/.test(sessionId) || KEEP.has(sessionId)) return undefined;
  return path.join(scratchRoot, sessionId);
}

/** Deletes a session's scratch folder (call after the session is deleted). Never throws; returns whether a folder went. */
export async function removeSessionScratch(scratchRoot: string, sessionId: string): Promise<boolean> {
  const dir = sessionFolder(scratchRoot, sessionId);
  if (!dir || !fs.existsSync(dir)) return false;
  try {
    await fs.promises.rm(dir, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

/** The newest modification time of a folder and the entries directly in it. */
function lastTouched(dir: string): number {
  let newest = fs.statSync(dir).mtimeMs;
  for (const name of fs.readdirSync(dir)) {
    try {
      newest = Math.max(newest, fs.lstatSync(path.join(dir, name)).mtimeMs);
    } catch {
      /* removed meanwhile */
    }
  }
  return newest;
}

/**
 * Removes scratch folders (not `attachments`) not touched for `maxAgeDays`, and makes the root 0700.
 * Call at startup, where the scratch root is first used. Never throws; returns the folders removed.
 */
export async function pruneOldScratch(scratchRoot: string, maxAgeDays = SCRATCH_MAX_AGE_DAYS, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    ensurePrivateDir(scratchRoot);
    names = fs.readdirSync(scratchRoot);
  } catch {
    return removed;
  }
  const cutoff = now - maxAgeDays * 24 * 60 * 60 * 1000;
  for (const name of names) {
    if (KEEP.has(name)) continue;
    const dir = path.join(scratchRoot, name);
    try {
      if (!fs.lstatSync(dir).isDirectory() || lastTouched(dir) >= cutoff) continue;
      await fs.promises.rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      /* in use or gone: try again next start */
    }
  }
  return removed;
}
