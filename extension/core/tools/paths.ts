import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A model-given path resolved against the workspace, symlinks followed. */
export interface ResolvedPath {
  /** What the model wrote. */
  input: string;
  /** Absolute path before symlinks are followed. */
  abs: string;
  /** Real path: symlinks followed, also through not-yet-existing tails (nearest existing parent). */
  real: string;
  exists: boolean;
  /** The real path lies inside the workspace's real root. */
  inside: boolean;
  /** Why a write here always asks (protected path), when it does. Outside-the-workspace is `inside: false`. */
  protectedReason?: string;
  /** Workspace-relative (posix) when inside, else absolute: for messages to the model. */
  display: string;
}

const MAX_LINKS = 40;

/** realpath that also works for paths that do not exist yet: follows dangling links, resolves the nearest existing parent. */
export function realPathLoose(p: string, depth = 0): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    /* not there (yet): fall through */
  }
  if (depth > MAX_LINKS) return p;
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(p);
  } catch {
    st = undefined;
  }
  if (st?.isSymbolicLink()) {
    const target = path.resolve(path.dirname(p), fs.readlinkSync(p));
    return realPathLoose(target, depth + 1);
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  return path.join(realPathLoose(parent, depth + 1), path.basename(p));
}

/** Expands a leading `~` to the home directory, the way a user (and a model) means it. */
function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/')) return path.join(os.homedir(), p.slice(2));
  return p;
}

function relInside(root: string, p: string): string | undefined {
  const rel = path.relative(root, p);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel;
}

const PROTECTED_DIRS = new Map([
  ['.git', 'the .git folder (repository internals and hooks)'],
  ['.vscode', 'the .vscode folder (editor settings, tasks and launch configs)'],
  ['.snowpea', 'the .snowpea folder (Snowpea settings and skills)'],
]);
const MCP_CONFIG_NAMES = new Set(['mcp.json', '.mcp.json']);

/**
 * Why a workspace-relative path is protected for writes, if it is: `.git/`, `.vscode/`, `.snowpea/`
 * (at any depth), MCP configs (`.vscode/mcp.json`, `.mcp.json`, `mcp.json`, `.cursor/mcp.json`) and `.env*`.
 */
export function protectedReason(relPath: string): string | undefined {
  const segs = relPath.split(/[\\/]+/).filter(Boolean).map((s) => s.toLowerCase());
  if (segs.length === 0) return undefined;
  const base = segs[segs.length - 1];
  if (MCP_CONFIG_NAMES.has(base)) return `${relPath} is an MCP server config`;
  if (base.startsWith('.env')) return `${relPath} is an environment file (.env*), which often holds secrets`;
  for (const seg of segs) {
    const what = PROTECTED_DIRS.get(seg);
    if (what) return `${relPath} is inside ${what}`;
  }
  return undefined;
}

const rootCache = new Map<string, string>();

/** The workspace root's real path (cached: it does not move during a session). */
export function realRoot(workspaceRoot: string): string {
  let r = rootCache.get(workspaceRoot);
  if (!r) {
    r = realPathLoose(path.resolve(workspaceRoot));
    rootCache.set(workspaceRoot, r);
  }
  return r;
}

/** Display form of an absolute real path: workspace-relative posix when inside, else as is. */
export function displayPath(workspaceRoot: string, absReal: string): string {
  const rel = relInside(realRoot(workspaceRoot), absReal);
  if (rel === undefined) return absReal;
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

/** Resolves a path the model gave (relative to the workspace, absolute, or `~/...`) and classifies it. */
export function resolveToolPath(workspaceRoot: string, input: string): ResolvedPath {
  const root = realRoot(workspaceRoot);
  const abs = path.resolve(root, expandHome(input.trim() || '.'));
  const real = realPathLoose(abs);
  const exists = fs.existsSync(real);
  const rel = relInside(root, real);
  const inside = rel !== undefined;
  // Check both the lexical and the real location: a link named `notes` pointing into .git is protected too.
  const lexRel = relInside(root, abs);
  const reason = (rel !== undefined ? protectedReason(rel) : undefined) ?? (lexRel !== undefined ? protectedReason(lexRel) : undefined);
  return { input, abs, real, exists, inside, protectedReason: reason, display: displayPath(workspaceRoot, real) };
}

/** True when `p` (a real path) is `dir` or lies below it. */
export function isWithin(dir: string, p: string): boolean {
  return relInside(dir, p) !== undefined;
}
