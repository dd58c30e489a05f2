import * as fs from 'node:fs';
import * as path from 'node:path';
import { readConfined } from '../tools/confined-read';
import { isWithin } from '../tools/paths';
import { workspaceRootsOf } from '../tools/roots';
import { IgnoreStack } from '../tools/search/walk';
import { clipToCap, truncationMarker, type ContextCaps } from './caps';

/** Instruction file names, in the order they are listed within one folder. */
export const CONTEXT_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md', '.snowpea/instructions.md', '.cursorrules'];

export interface ContextFile {
  /** Workspace-relative, posix. */
  rel: string;
  /** Folder depth: 0 for the workspace root. */
  depth: number;
  /** Workspace-relative folder the file governs ('' for the root). */
  dir: string;
  text: string;
}

const MAX_DIRS = 4000;
const MAX_DEPTH = 12;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);
/** The largest per-file cap (caps.ts): what discovery reads of a file when the caller gives no cap. */
const DEFAULT_MAX_CHARS = 500_000;

export interface DiscoverOptions {
  /** The per-file cap: a file is read up to this many bytes (head 70%, tail 20%), never whole when larger. */
  maxChars?: number;
  /** Told why a file was not read (a link leading outside the workspace, a FIFO): for the log. */
  onSkip?: (why: string) => void;
  /** Workspace Trust: false reads none of the workspace's instruction files (a repository's files are untrusted input). Default: trusted (the CLI). */
  trusted?: boolean;
}

/**
 * Other agents' instruction files, read at the workspace root only (where those agents read them)
 * and only in a trusted workspace: Copilot's `.github/copilot-instructions.md` and Cline's
 * `.clinerules`, a file or a folder of `.md`/`.txt` rules (read in name order, at most MAX_RULE_FILES).
 */
export const PEER_ROOT_FILES = ['.github/copilot-instructions.md', '.clinerules'];
const MAX_RULE_FILES = 50;

function peerRootFiles(root: string, cap: number, onSkip?: (why: string) => void, prefix = ''): ContextFile[] {
  const out: ContextFile[] = [];
  const add = (rel: string) => {
    const text = readContextFile(path.join(root, ...rel.split('/')), root, `${prefix}${rel}`, cap, onSkip);
    if (text !== undefined) out.push({ rel: `${prefix}${rel}`, depth: 0, dir: prefix.replace(/\/$/, ''), text });
  };
  add('.github/copilot-instructions.md');
  add('.clinerules');
  const dir = path.join(root, '.clinerules');
  let names: string[];
  try {
    const real = fs.realpathSync.native(dir);
    if (!fs.statSync(real).isDirectory()) return out;
    if (!isWithin(root, real)) {
      onSkip?.(`instruction files not read: .clinerules links to ${real}, outside ${root}`);
      return out;
    }
    names = fs.readdirSync(real).filter((n) => /\.(md|txt)$/i.test(n)).sort();
  } catch {
    return out;
  }
  for (const n of names.slice(0, MAX_RULE_FILES)) add(`.clinerules/${n}`);
  return out;
}

/**
 * One instruction file's text, when its real path is inside the workspace and it is a regular file;
 * a file over the cap is read as its head and tail only, cut the way clipToCap cuts.
 */
function readContextFile(file: string, root: string, rel: string, cap: number, onSkip?: (why: string) => void): string | undefined {
  const head = Math.floor(cap * 0.7);
  const tail = Math.floor(cap * 0.2);
  const r = readConfined(file, root, { maxBytes: cap, tailBytes: tail, label: rel });
  if (r.kind === 'skipped') onSkip?.(`instruction file not read: ${r.why}`);
  if (r.kind !== 'ok') return undefined;
  if (!r.truncated) return r.head.toString('utf8');
  const omitted = r.size - head - tail;
  return `${r.head.subarray(0, head).toString('utf8')}\n${truncationMarker(omitted, rel)}\n${r.tail.toString('utf8')}`;
}

/**
 * Finds AGENTS.md, CLAUDE.md, .snowpea/instructions.md and .cursorrules at the workspace root
 * and in nested folders (and, trusted, PEER_ROOT_FILES at the root), skipping .gitignore'd folders and node_modules. Root files first, then
 * by depth and path. Bounded (folders visited, depth) so a huge monorepo cannot stall a turn.
 * Only regular files whose real path is inside the workspace are read, each up to the cap (H5).
 * None in an untrusted workspace: Restricted Mode reads no instructions from the repository.
 */
export function discoverContextFiles(workspaceRoot: string, o: DiscoverOptions = {}): ContextFile[] {
  if (o.trusted === false) {
    o.onSkip?.('the workspace is not trusted: its instruction files (AGENTS.md, CLAUDE.md, .cursorrules, .snowpea/instructions.md and the other agents\' files) are not read until it is');
    return [];
  }
  const roots = workspaceRootsOf(workspaceRoot);
  if (roots.length === 1) return discoverIn(workspaceRoot, '', o);
  // A multi-root workspace: every folder's files, each under the same caps and trust rules, named `folder/path`.
  const out: ContextFile[] = [];
  for (const r of roots) {
    if (r.name === undefined) {
      o.onSkip?.(`instruction files of ${r.path} not read: another workspace folder has the same name`);
      continue;
    }
    try {
      out.push(...discoverIn(r.path, `${r.name}/`, o));
    } catch (e) {
      o.onSkip?.(`instruction files of ${r.name} not read: ${(e as Error).message}`);
    }
  }
  return out.sort((a, b) => a.depth - b.depth || a.rel.localeCompare(b.rel));
}

/** One folder's instruction files, their paths under `prefix` (`folder/` in a multi-root workspace). */
function discoverIn(folder: string, prefix: string, o: DiscoverOptions): ContextFile[] {
  const cap = o.maxChars ?? DEFAULT_MAX_CHARS;
  const root = fs.realpathSync.native(folder);
  const out: ContextFile[] = [];
  const queue: Array<{ dir: string; stack: IgnoreStack; depth: number }> = [{ dir: root, stack: IgnoreStack.at(root, root), depth: 0 }];
  let visited = 0;
  while (queue.length && visited < MAX_DIRS) {
    const { dir, stack, depth } = queue.shift()!;
    visited++;
    const relDir = `${prefix}${path.relative(root, dir).split(path.sep).join('/')}`.replace(/\/$/, '');
    for (const name of CONTEXT_FILE_NAMES) {
      const rel = relDir ? `${relDir}/${name}` : name;
      const text = readContextFile(path.join(dir, name), root, rel, cap, o.onSkip);
      if (text !== undefined) out.push({ rel, depth, dir: relDir, text });
    }
    if (depth === 0) out.push(...peerRootFiles(root, cap, o.onSkip, prefix));
    if (depth >= MAX_DEPTH) continue;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (!e.isDirectory() || SKIPPED_DIRS.has(e.name)) continue;
      const abs = path.join(dir, e.name);
      if (stack.ignores(abs, true)) continue;
      queue.push({ dir: abs, stack: stack.enter(abs), depth: depth + 1 });
    }
  }
  return out.sort((a, b) => a.depth - b.depth || a.rel.localeCompare(b.rel));
}

/**
 * Applies the caps: each file to the per-file cap; then, while the block is over its cap,
 * deeper files are cut first (deepest, then latest in order), and the root files stay whole
 * as long as they fit their own cap. Returns the texts as they go into the prompt.
 */
export function applyCaps(files: ContextFile[], caps: ContextCaps): Array<ContextFile & { shown: string }> {
  const shown = files.map((f) => ({ ...f, shown: clipToCap(f.text, caps.perFile, f.rel) }));
  const overhead = (f: ContextFile) => f.rel.length + 6;
  let total = shown.reduce((n, f) => n + f.shown.length + overhead(f), 0);
  const order = shown.map((_, i) => i).sort((a, b) => shown[b].depth - shown[a].depth || b - a);
  for (const i of order) {
    if (total <= caps.block) break;
    const f = shown[i];
    const excess = total - caps.block;
    const allowance = f.shown.length - excess;
    const next = allowance < 200 ? `…[truncated: ${f.text.length} more chars; read ${f.rel} for the rest]` : clipToCap(f.text, allowance, f.rel);
    total -= f.shown.length - next.length;
    f.shown = next;
  }
  return shown;
}

/** The system prompt's `# Project Context` block. */
export function renderProjectContext(files: Array<{ rel: string; shown: string }>): string | undefined {
  if (!files.length) return undefined;
  return ['# Project Context', ...files.map((f) => `## ${f.rel}\n${f.shown.trimEnd()}`)].join('\n\n');
}
