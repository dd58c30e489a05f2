import * as path from 'node:path';
import { claudeHome, snowpeaHome } from '../settings/files';
import { workspaceFolderOrigins } from '../tools/roots';

/** Whose file it is: the workspace's (read only when the workspace is trusted) or the user's own. */
export type LibraryScope = 'workspace' | 'user';
/** Which agent's format a file is written in. */
export type LibraryFormat = 'snowpea' | 'claude' | 'copilot' | 'roo';

/** A folder of command or agent files. */
export interface LibraryFolder {
  scope: LibraryScope;
  format: LibraryFormat;
  dir: string;
  /** What its real path must stay inside: the workspace, `~/.snowpea`, Claude Code's user folder. */
  owner: string;
  /** The folder as shown: `.github/prompts`, `~/.claude/commands`. */
  origin: string;
  /** The file names it holds, and how a name becomes the command's or agent's (its suffix dropped). */
  suffix: RegExp;
  recursive: boolean;
}

/** The folder `rel` in every workspace folder (primary first); in a multi-root workspace its origin names the folder (`api/.github/prompts`). */
function ws(root: string, rel: string, format: LibraryFormat, suffix: RegExp, recursive: boolean): LibraryFolder[] {
  return workspaceFolderOrigins(root).map((f) => ({ scope: 'workspace', format, dir: path.join(f.path, ...rel.split('/')), owner: f.path, origin: `${f.prefix}${rel}`, suffix, recursive }));
}

function claudeUser(rel: string): LibraryFolder {
  return { scope: 'user', format: 'claude', dir: path.join(claudeHome(), rel), owner: claudeHome(), origin: `~/.claude/${rel}`, suffix: /\.md$/i, recursive: true };
}

function snowpeaUser(rel: string): LibraryFolder {
  return { scope: 'user', format: 'snowpea', dir: path.join(snowpeaHome(), rel), owner: snowpeaHome(), origin: `~/.snowpea/${rel}`, suffix: /\.md$/i, recursive: true };
}

/** Where slash commands come from, the strongest first: a command of the same name in a later folder is left out. */
export function commandFolders(root: string): LibraryFolder[] {
  return [
    ...ws(root, '.snowpea/commands', 'snowpea', /\.md$/i, true),
    ...ws(root, '.claude/commands', 'claude', /\.md$/i, true),
    ...ws(root, '.github/prompts', 'copilot', /\.prompt\.md$/i, false),
    snowpeaUser('commands'),
    claudeUser('commands'),
  ];
}

/** Where custom agents come from (and `.roomodes` at the workspace root, after these), the strongest first. */
export function agentFolders(root: string): LibraryFolder[] {
  return [
    ...ws(root, '.snowpea/agents', 'snowpea', /\.md$/i, false),
    ...ws(root, '.claude/agents', 'claude', /\.md$/i, true),
    ...ws(root, '.github/agents', 'copilot', /(\.agent)?\.md$/i, false),
    ...ws(root, '.github/chatmodes', 'copilot', /\.chatmode\.md$/i, false),
    snowpeaUser('agents'),
    claudeUser('agents'),
  ];
}

/** Roo Code's project modes: `.roomodes` at the workspace root, YAML or JSON. */
export const ROO_MODES_FILE = '.roomodes';
