/**
 * Nested repositories (a submodule, a cloned library inside the workspace) are never in a
 * checkpoint: each has its own git, and a restore leaves it as it is. So that edits there are
 * not skipped unsaid (reliability N7), a diff stat or a restore names each nested repository in
 * which something changed since the checkpoint, told by modification times (the checkpoint holds
 * no copy to compare with): files written since, and folders whose entries were added, removed
 * or renamed since.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SNOWPEA_EXCLUDES } from './coverage';

export interface NestedChange {
  /** The nested repository, relative to the workspace, `/`-separated. */
  repo: string;
  /** Files (and links) written since the checkpoint; a lower bound when `partial`. */
  files: number;
  /** Only folders changed: entries were removed or renamed. */
  entriesOnly: boolean;
  /** The repository is no longer there. */
  gone: boolean;
  /** The walk stopped at its limit before seeing every entry. */
  partial: boolean;
}

/**
 * Now, in ms since the epoch, rounded up: a file written before this call has an earlier
 * modification time (file times come from a coarser clock that never runs ahead), so it never
 * counts as changed since.
 */
export function momentNow(): number {
  return Math.ceil(performance.timeOrigin + performance.now());
}

/** Most entries one repository's walk looks at. */
const MAX_ENTRIES = 50_000;

/** Generated folders (node_modules, dist, ...), skipped as checkpoints skip them. */
const SKIPPED = new Set(SNOWPEA_EXCLUDES.filter((e) => e.endsWith('/')).map((e) => e.slice(0, -1)));

/**
 * Which of `repos` (nested repositories then or now, relative to `workTree`) changed after `since`
 * (ms since the epoch); unchanged ones are left out.
 */
export async function nestedChangesSince(workTree: string, repos: readonly string[], since: number, signal: AbortSignal): Promise<NestedChange[]> {
  const changed: NestedChange[] = [];
  for (const repo of [...new Set(repos)].sort()) {
    if (signal.aborted) break;
    const root = path.join(workTree, ...repo.split('/'));
    const st = fs.lstatSync(root, { throwIfNoEntry: false });
    if (!st?.isDirectory()) {
      changed.push({ repo, files: 0, entriesOnly: false, gone: true, partial: false });
      continue;
    }
    const seen = { entries: 0, files: 0, folders: st.mtimeMs > since ? 1 : 0 };
    const partial = !(await walk(root, since, seen, signal));
    if (seen.files || seen.folders) changed.push({ repo, files: seen.files, entriesOnly: !seen.files, gone: false, partial });
  }
  return changed;
}

/** Counts what changed under `dir`; false when it stopped at the entry limit. */
async function walk(dir: string, since: number, seen: { entries: number; files: number; folders: number }, signal: AbortSignal): Promise<boolean> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return true; // unreadable: nothing to tell
  }
  for (const e of entries) {
    if (signal.aborted || ++seen.entries > MAX_ENTRIES) return false;
    if (e.name === '.git' || (e.isDirectory() && SKIPPED.has(e.name))) continue;
    const p = path.join(dir, e.name);
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) {
      if (st.mtimeMs > since) seen.folders++;
      if (!(await walk(p, since, seen, signal))) return false;
    } else if ((st.isFile() || st.isSymbolicLink()) && st.mtimeMs > since) seen.files++;
  }
  return true;
}

/** `vendor/lib (2 files changed)`, `nested (entries removed or renamed)`, `old (removed)`. */
export function nestedWords(c: NestedChange): string {
  if (c.gone) return `${c.repo} (removed)`;
  if (c.entriesOnly) return `${c.repo} (files removed or renamed)`;
  return `${c.repo} (${c.partial ? 'at least ' : ''}${c.files} file${c.files === 1 ? '' : 's'} changed)`;
}

/**
 * One line for the end of a turn or a restore: `3 nested repositories changed since turn 2: vendor/lib
 * (2 files changed), nested (1 file changed); checkpoints do not cover nested repositories (each has its
 * own git), so a restore leaves them as they are`. Empty when none changed.
 */
export function nestedLine(changes: readonly NestedChange[], since: string): string {
  if (!changes.length) return '';
  const n = changes.length;
  return `${n === 1 ? 'a nested repository' : `${n} nested repositories`} changed ${since}: ${changes.map(nestedWords).join(', ')}; checkpoints do not cover nested repositories (each has its own git), so a restore leaves ${n === 1 ? 'it' : 'them'} as ${n === 1 ? 'it is' : 'they are'}`;
}
