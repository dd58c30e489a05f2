import { execFile } from 'node:child_process';
import { realRoot } from '../paths';
import { errorResult, type ToolContext, type ToolResult } from '../types';
import { toolEnv } from '../exec/run-process';

export interface GitOutput {
  stdout: string;
  stderr: string;
  code: number;
}

const MAX_BUFFER = 64 * 1024 * 1024;

/** Runs `git <args>` in the workspace (no pager, no prompts, no colour). */
export function runGit(args: string[], ctx: ToolContext): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['--no-pager', '-c', 'color.ui=never', '-c', 'core.quotepath=off', ...args],
      { cwd: realRoot(ctx.workspaceRoot), env: toolEnv(), signal: ctx.signal, maxBuffer: MAX_BUFFER, windowsHide: true },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
        if (e && (e.code === 'ENOENT' || e.name === 'AbortError')) return reject(e);
        resolve({ stdout, stderr, code: e ? (typeof e.code === 'number' ? e.code : 1) : 0 });
      },
    );
  });
}

/** The error a failed git run becomes; "not a git repository" gets a message that says what to do. */
export function gitFailure(tool: string, out: GitOutput, ctx: ToolContext): ToolResult {
  if (/not a git repository/i.test(out.stderr)) {
    return errorResult('failed', `${tool}: the workspace (${realRoot(ctx.workspaceRoot)}) is not inside a git repository. Use shell with "git init" only if the user wants one.`);
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
