/**
 * Snowpea's own state, which file walks (grep, glob) never enter, wherever the workspace is (a
 * workspace at or above the home folder included): searching it would read the user's API key
 * and every stored transcript, and find the outputs of earlier searches, which grow with each one.
 *
 * State (skipped):
 * - in the Snowpea home (~/.snowpea, or SNOWPEA_HOME): `state.db` and every file beside it named
 *   from it (its journal, content folder, lock), `checkpoints/` (shadow repositories), `scratch/`
 *   (saved tool outputs, attachments), `mcp/` (tool lists, consent), `workspaces/` (writer locks,
 *   restore journals), `credentials.json` and `key-origins.json`;
 * - the editor's storage of the extension: a `snowpea.snowpea` folder in VS Code's `globalStorage/`
 *   or `workspaceStorage/<id>/` (its state.db, checkpoints and scratch).
 * Not state (searched as any file): settings.json, instructions.md, memory.md, skills/ and
 * commands/, in the home or in a workspace's `.snowpea/`: they are meant to be read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { snowpeaHome } from '../../settings/files';

/** Entries of the Snowpea home that hold state. */
export const HOME_STATE_ENTRIES = ['checkpoints', 'scratch', 'mcp', 'workspaces', 'credentials.json', 'key-origins.json'] as const;
/** state.db and the files named from it. */
const STATE_DB = /^state\.db/;
/** The extension's id, the name of its folder in the editor's storage. */
const EXTENSION_STORAGE = 'snowpea.snowpea';

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The real path of the Snowpea home, as walks see paths. */
export function realSnowpeaHome(): string {
  return realOrResolved(snowpeaHome());
}

/** Whether the entry `name` of folder `dir` (a real path) is Snowpea state. */
export function isSnowpeaState(dir: string, name: string, home: string = realSnowpeaHome()): boolean {
  if (dir === home && (STATE_DB.test(name) || (HOME_STATE_ENTRIES as readonly string[]).includes(name))) return true;
  return name === EXTENSION_STORAGE && (path.basename(dir) === 'globalStorage' || path.basename(path.dirname(dir)) === 'workspaceStorage');
}

/** A literal path as a ripgrep glob (its glob characters escaped). */
const globLiteral = (p: string) => p.replace(/[\\[\]{}*?!]/g, (c) => `\\${c}`);

/**
 * ripgrep `--glob` excludes for the state of the Snowpea home when it lies inside `root` (rg runs
 * with `root` as its working folder: a leading `/` anchors a glob there), and for the editor's
 * storage anywhere below it.
 */
export function ripgrepStateExcludes(root: string, home: string = realSnowpeaHome()): string[] {
  const out = [`!**/globalStorage/${EXTENSION_STORAGE}`, `!**/workspaceStorage/*/${EXTENSION_STORAGE}`];
  const rel = path.relative(root, home);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return out;
  const prefix = rel ? `/${globLiteral(rel.split(path.sep).join('/'))}` : '';
  out.push(`!${prefix}/state.db*`, ...HOME_STATE_ENTRIES.map((e) => `!${prefix}/${e}`));
  return out;
}
