import { execFile } from 'node:child_process';
import { realRoot } from '../paths';
import { errorResult, type ToolContext, type ToolResult } from '../types';
import { DIFF_SUBCOMMANDS, filterNames, filterOverrides, gitEnv, HARDENED_CONFIG, locateRepo, looksLikePlantedGitDir, type RepoLocation } from './locate-repo';

export interface GitOutput {
  stdout: string;
  stderr: string;
  code: number;
}

const MAX_BUFFER = 64 * 1024 * 1024;

/** What a git run needs of a tool's context (the composer's `@changes` has no more than this). */
export type GitContext = Pick<ToolContext, 'workspaceRoot'> & { signal?: AbortSignal };

const NOT_A_REPO = 'fatal: not a git repository (no .git at the workspace root or above it)';

/**
 * Runs `git <args>` in the workspace (no pager, no prompts, no colour) against the workspace's own
 * `.git` or the repository above it, never a git dir planted at the root, with the repository's
 * program-running config (fsmonitor, hooks, external diff, textconv) switched off.
 */
export async function runGit(args: string[], ctx: GitContext): Promise<GitOutput> {
  const root = realRoot(ctx.workspaceRoot);
  const repo = await locateRepo(root, ctx.signal);
  if (!repo) return { stdout: '', stderr: NOT_A_REPO, code: 128 };
  const [sub, ...rest] = args;
  const safeArgs = DIFF_SUBCOMMANDS.has(sub) ? [sub, '--no-ext-diff', '--no-textconv', ...(sub === 'log' || sub === 'show' ? ['--no-show-signature'] : []), ...rest] : args;
  const filters = filterOverrides(filterNames((await execGit(repo, root, [...HARDENED_CONFIG, 'config', '--get-regexp', '^filter\\.'], ctx.signal)).stdout));
  const full = ['--no-pager', `--git-dir=${repo.gitDir}`, `--work-tree=${repo.workTree}`, ...HARDENED_CONFIG, ...filters, '-c', 'color.ui=never', '-c', 'core.quotepath=off', ...safeArgs];
  return execGit(repo, root, full, ctx.signal, false);
}

/** One git process (`args` complete unless `located`, which adds the repository's git dir and work tree). */
function execGit(repo: RepoLocation, root: string, args: string[], signal: AbortSignal | undefined, located = true): Promise<GitOutput> {
  const full = located ? ['--no-pager', `--git-dir=${repo.gitDir}`, `--work-tree=${repo.workTree}`, ...args] : args;
  return new Promise((resolve, reject) => {
    execFile('git', full, { cwd: root, env: gitEnv(), signal, maxBuffer: MAX_BUFFER, windowsHide: true }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
      if (e && (e.code === 'ENOENT' || e.name === 'AbortError')) return reject(e);
      resolve({ stdout, stderr, code: e ? (typeof e.code === 'number' ? e.code : 1) : 0 });
    });
  });
}

/** The error a failed git run becomes; "not a git repository" gets a message that says what to do. */
export function gitFailure(tool: string, out: GitOutput, ctx: GitContext): ToolResult {
  if (/not a git repository/i.test(out.stderr)) {
    const root = realRoot(ctx.workspaceRoot);
    const planted = looksLikePlantedGitDir(root) ? ' Its root holds HEAD and objects/ or refs/ but no .git folder; Snowpea does not use the workspace root itself as a git folder.' : '';
    return errorResult('failed', `${tool}: the workspace (${root}) is not inside a git repository.${planted} Use shell with "git init" only if the user wants one.`);
  }
  return errorResult('failed', `${tool}: git exited with code ${out.code}: ${(out.stderr || out.stdout).trim().slice(0, 4000)}`);
}

/** Runs git and maps the usual failures; `undefined` result means use `out`. */
export async function gitOrError(tool: string, args: string[], ctx: ToolContext): Promise<{ out: GitOutput } | { error: ToolResult }> {
  try {
    const out = await runGit(args, ctx);
    return out.code === 0 ? { out } : { error: gitFailure(tool, out, ctx) };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') return { error: errorResult('unavailable', `${tool}: the git program was not found on PATH.`) };
    return { error: errorResult('cancelled', `${tool} was cancelled.`) };
  }
}
