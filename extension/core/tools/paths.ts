import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { configuredHooksDir } from './hooks-path';
import { workspaceRootsOf } from './roots';
import { sensitiveHomeReason, homeConfigReason } from './sensitive-home';

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
  /**
   * Why a write here always asks, when it does: a protected path (see `protectedReason`), a credentials
   * location (`sensitiveReason`), or a file with more than one hard link. Outside-the-workspace is `inside: false`.
   */
  protectedReason?: string;
  /**
   * Why reading OR writing here always asks, when it does: the path (before or after following
   * symlinks) is in a credentials location of the user's home (~/.ssh, ~/.aws, ~/.netrc, ...), which
   * matters when the workspace is the home folder or `/`. Undefined elsewhere.
   */
  sensitiveReason?: string;
  /** Hard links of an existing regular file (its st.nlink: 2 or more means other names share the content); 0 otherwise. */
  hardLinks: number;
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
  ['.husky', 'the .husky folder (git hooks: scripts git runs on commit and push)'],
  ['.githooks', 'the .githooks folder (git hooks: scripts git runs on commit and push)'],
  ['.devcontainer', 'the .devcontainer folder (dev container configs: VS Code offers to reopen in the container, which runs their commands)'],
  ['.claude', "the .claude folder (Claude Code's commands, agents, skills and settings, which Snowpea and Claude Code read)"],
  ['.agents', 'the .agents folder (skills that reach later sessions)'],
  ['.clinerules', "the .clinerules folder (Cline's rules, instruction files for later sessions)"],
  ['.cursor', "the .cursor folder (Cursor's rules and MCP config)"],
]);
/** Agent configs under `.github/` (Copilot's instructions, prompt files, agents and chat modes): they reach later sessions' prompts. */
const GITHUB_AGENT_DIRS = new Set(['prompts', 'agents', 'instructions', 'chatmodes']);
/**
 * Files outside those folders that VS Code or a tool runs, or that carry settings and tasks: a
 * `*.code-workspace` has the same settings, tasks (`runOn: folderOpen`) and launch configs as
 * .vscode/ (CVE-2025-58372), `.devcontainer.json` the same commands as .devcontainer/, and linter
 * and formatter configs written in JavaScript run when an editor extension loads them, which
 * opening an edited file does (red-team N8, N17).
 */
const RUN_CONFIG: Array<[RegExp, string]> = [
  [/\.code-workspace$/, 'a VS Code workspace file (its settings, tasks and launch configs run like .vscode/)'],
  [/^\.devcontainer\.json$/, 'a dev container config (VS Code offers to reopen in the container, which runs its commands)'],
  [/^(?:eslint\.config\.[cm]?[jt]s|\.eslintrc\.[cm]?js|prettier\.config\.[cm]?[jt]s|\.prettierrc\.[cm]?[jt]s|stylelint\.config\.[cm]?js|\.stylelintrc\.[cm]?js)$/, 'a linter or formatter config written in code, which editor extensions run when they load it'],
];
const MCP_CONFIG_NAMES = new Set(['mcp.json', '.mcp.json']);
/** Instruction files (context-files.ts) outside .snowpea: they reach every later session's system prompt. */
const INSTRUCTION_NAMES = new Set(['agents.md', 'claude.md', '.cursorrules', '.clinerules', '.roomodes', 'copilot-instructions.md']);
/** Hooks git runs from a hooks folder; protected by name when core.hooksPath is the workspace root itself. */
const GIT_HOOK_NAMES = new Set(
  'applypatch-msg pre-applypatch post-applypatch pre-commit pre-merge-commit prepare-commit-msg commit-msg post-commit pre-rebase post-checkout post-merge pre-push pre-receive update proc-receive post-receive post-update reference-transaction push-to-checkout pre-auto-gc post-rewrite sendemail-validate fsmonitor-watchman post-index-change'.split(' '),
);

/**
 * Why a workspace-relative path is protected for writes, if it is: `.git/`, `.vscode/`, `.snowpea/`,
 * `.husky/`, `.githooks/`, `.devcontainer/`, peers' agent folders (`.claude/`, `.agents/`, `.clinerules/`, `.cursor/`,
 * `.github/prompts|agents|instructions|chatmodes/`) (at any depth), MCP configs (`.vscode/mcp.json`, `.mcp.json`, `mcp.json`,
 * `.cursor/mcp.json`), `.env*`, instruction files (AGENTS.md, CLAUDE.md, .cursorrules, .clinerules, .roomodes,
 * copilot-instructions.md at any depth),
 * `*.code-workspace`, `.devcontainer.json`, linter and formatter configs written in code (RUN_CONFIG),
 * and the folder `core.hooksPath` names (`hooksRel`, workspace-relative, '' for the root itself).
 */
export function protectedReason(relPath: string, hooksRel?: string): string | undefined {
  const segs = relPath.split(/[\\/]+/).filter(Boolean).map((s) => s.toLowerCase());
  if (segs.length === 0) return undefined;
  const base = segs[segs.length - 1];
  if (MCP_CONFIG_NAMES.has(base)) return `${relPath} is an MCP server config`;
  if (base.startsWith('.env')) return `${relPath} is an environment file (.env*), which often holds secrets`;
  if (INSTRUCTION_NAMES.has(base)) return `${relPath} is an instruction file, which reaches every later session's system prompt`;
  for (const [re, what] of RUN_CONFIG) if (re.test(base)) return `${relPath} is ${what}`;
  for (const seg of segs) {
    const what = PROTECTED_DIRS.get(seg);
    if (what) return `${relPath} is inside ${what}`;
  }
  const gh = segs.indexOf('.github');
  if (gh >= 0 && gh < segs.length - 2 && GITHUB_AGENT_DIRS.has(segs[gh + 1]!)) return `${relPath} is a Copilot agent config (.github/${segs[gh + 1]}/), which reaches later sessions' prompts`;
  if (hooksRel !== undefined) {
    const hooks = hooksRel.split(/[\\/]+/).filter(Boolean);
    const orig = relPath.split(/[\\/]+/).filter(Boolean);
    const under = hooks.length > 0 ? hooks.every((h, i) => orig[i] === h) && orig.length > hooks.length : orig.length === 1 && GIT_HOOK_NAMES.has(base);
    if (under) return `${relPath} is a git hook: core.hooksPath in .git/config points ${hooks.length ? `at ${hooks.join('/')}/` : 'at the workspace root'}, and git runs these scripts`;
  }
  return undefined;
}

/** The core.hooksPath folder, workspace-relative, when .git/config sets one inside the workspace. */
function hooksRelOf(root: string): string | undefined {
  const dir = configuredHooksDir(root);
  return dir === undefined ? undefined : relInside(root, realPathLoose(dir));
}

/** st.nlink of an existing regular file, else 0. */
function hardLinksOf(real: string): number {
  try {
    const st = fs.statSync(real);
    return st.isFile() ? st.nlink : 0;
  } catch {
    return 0;
  }
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

interface RealRoot {
  real: string;
  /** `name/` in a multi-root workspace (the folder names the path), '' in a single-folder one; undefined for an unnamed folder (absolute paths). */
  prefix?: string;
  name?: string;
}

/** The workspace's folders with their real paths, primary first. */
function realRoots(workspaceRoot: string): RealRoot[] {
  const roots = workspaceRootsOf(workspaceRoot);
  if (roots.length === 1) return [{ real: realRoot(roots[0]!.path), prefix: '' }];
  return roots.map((r) => ({ real: realRoot(r.path), ...(r.name !== undefined ? { prefix: `${r.name}/`, name: r.name } : {}) }));
}

/** The folders that hold `p` (a real or absolute path), the innermost first (a folder may lie inside another). */
function holders(roots: RealRoot[], p: string): Array<RealRoot & { rel: string }> {
  return roots
    .flatMap((r) => {
      const rel = relInside(r.real, p);
      return rel === undefined ? [] : [{ ...r, rel }];
    })
    .sort((a, b) => b.real.length - a.real.length);
}

/**
 * The workspace folder a real path lies in (innermost), as tools that walk a folder need it: its
 * real path and the prefix that names it in output (`name/` when the workspace has several
 * folders, '' otherwise). The primary folder for a path outside every folder.
 */
export function rootOfPath(workspaceRoot: string, absReal: string): { real: string; prefix: string } {
  const roots = realRoots(workspaceRoot);
  const h = holders(roots, absReal)[0];
  if (!h) return { real: roots[0]!.real, prefix: roots[0]!.prefix ?? '' };
  return { real: h.real, prefix: h.prefix ?? `${h.real}${path.sep}` };
}

/**
 * Display form of an absolute real path: workspace-relative posix when inside; with several
 * folders, `folderName/rel` (VS Code's multi-root form); else as is.
 */
export function displayPath(workspaceRoot: string, absReal: string): string {
  const roots = realRoots(workspaceRoot);
  const h = holders(roots, absReal)[0];
  if (!h || h.prefix === undefined) return absReal;
  const rel = h.rel.split(path.sep).join('/');
  if (roots.length === 1) return rel === '' ? '.' : rel;
  return rel === '' ? h.name! : `${h.prefix}${rel}`;
}

/**
 * Where a model-given path points before symlinks: absolute and `~/` as written; relative against
 * the primary folder, or (several folders) against the folder its first segment names.
 */
function lexical(roots: RealRoot[], input: string): string {
  const p = expandHome(input.trim() || '.');
  if (path.isAbsolute(p) || roots.length === 1) return path.resolve(roots[0]!.real, p);
  const [first, ...rest] = p.split(/[\\/]+/);
  const named = roots.find((r) => r.name !== undefined && r.name === first);
  return named ? path.resolve(named.real, rest.join('/') || '.') : path.resolve(roots[0]!.real, p);
}

/**
 * Resolves a path the model gave (relative to the workspace, absolute, or `~/...`) and classifies it.
 * In a multi-root workspace, `name/rest` names another folder and "inside" means inside any folder;
 * protected paths are protected in every folder.
 */
export function resolveToolPath(workspaceRoot: string, input: string): ResolvedPath {
  const roots = realRoots(workspaceRoot);
  const abs = lexical(roots, input);
  const real = realPathLoose(abs);
  const exists = fs.existsSync(real);
  const realHolders = holders(roots, real);
  const inside = realHolders.length > 0;
  // Check both the lexical and the real location: a link named `notes` pointing into .git is protected too.
  const lexHolders = holders(roots, abs);
  const display = displayPath(workspaceRoot, real);
  const sensitiveReason = sensitiveHomeReason(display, real, abs);
  const hardLinks = exists ? hardLinksOf(real) : 0;
  const linked = hardLinks > 1 ? `${display} has ${hardLinks} hard links; writing it changes the other names too` : undefined;
  const protectedIn = (hs: Array<RealRoot & { rel: string }>) => {
    for (const h of hs) {
      const why = protectedReason(h.rel, hooksRelOf(h.real));
      if (why) return roots.length > 1 && h.prefix ? why.replace(h.rel, `${h.prefix}${h.rel.split(path.sep).join('/')}`) : why;
    }
    return undefined;
  };
  const reason = protectedIn(realHolders) ?? protectedIn(lexHolders) ?? sensitiveReason ?? homeConfigReason(display, real, abs) ?? linked;
  return { input, abs, real, exists, inside, protectedReason: reason, sensitiveReason, hardLinks, display };
}

/** True when `p` (a real path) is `dir` or lies below it. */
export function isWithin(dir: string, p: string): boolean {
  return relInside(dir, p) !== undefined;
}
