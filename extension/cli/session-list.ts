/**
 * `snowpea sessions list [--all] [--json]`: the sessions of the current folder (the workspace a
 * `snowpea run` here would use), or with --all of every folder, each with its workspace.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StateDb } from '../core/store';
import { count } from './count';
import { oneLine } from './terminal-text';

export interface SessionRow {
  id: string;
  title: string;
  /** The folder the session works in (its workspace root). */
  workspace: string;
  created: string;
  updated: string;
  rounds: number;
}

function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** A folder as people read it: under the home folder as `~/...`. */
export function folderForPeople(p: string): string {
  const home = os.homedir();
  const rel = path.relative(home, p);
  if (!rel) return '~';
  return rel.startsWith('..') || path.isAbsolute(rel) ? p : `~${path.sep}${rel}`;
}

/** How the listing marks a session with no stored round (its run was stopped before the first answer; `sessions delete ID` removes it). */
export const STOPPED_EARLY = '(stopped before its first answer; nothing of it was stored)';

export function sessionRows(store: Pick<StateDb, 'listSessions' | 'getSession'>, cwd: string, all: boolean): { rows: SessionRow[]; elsewhere: number } {
  const here = real(cwd);
  const rows: SessionRow[] = [];
  let elsewhere = 0;
  for (const s of store.listSessions()) {
    const workspace = store.getSession(s.id)?.workspaceRoot ?? '';
    if (!all && real(workspace) !== here) {
      elsewhere++;
      continue;
    }
    rows.push({ id: s.id, title: s.title, workspace, created: new Date(s.created).toISOString(), updated: new Date(s.updated).toISOString(), rounds: s.rounds });
  }
  return { rows, elsewhere };
}

export function listSessionsCommand(store: StateDb, cwd: string, flags: { json?: boolean; all?: boolean }): number {
  const { rows, elsewhere } = sessionRows(store, cwd, !!flags.all);
  if (flags.json) {
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return 0;
  }
  if (!rows.length) {
    const where = flags.all ? '' : ` in ${oneLine(folderForPeople(cwd))}`;
    const others = elsewhere ? ` (${count(elsewhere, 'session')} in other folders: snowpea sessions list --all)` : '';
    process.stdout.write(`no sessions yet${where}${others}\n`);
    return 0;
  }
  const folders = rows.map((r) => oneLine(folderForPeople(r.workspace)));
  const width = Math.max(...folders.map((f) => f.length));
  rows.forEach((r, i) => {
    const when = r.updated.slice(0, 16).replace('T', ' ');
    // A run killed before its first round was stored leaves the session's row and title only (reliability N12): said, not hidden.
    const stopped = r.rounds === 0 ? `  ${STOPPED_EARLY}` : '';
    process.stdout.write(`${r.id}  ${when}  ${count(r.rounds, 'round').padStart(10)}  ${folders[i].padEnd(width)}  ${oneLine(r.title)}${stopped}\n`);
  });
  return 0;
}
