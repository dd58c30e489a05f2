import { formatIntroduced, introducedProblems } from '../problems-introduced';
import type { ToolContext } from '../types';

/**
 * Runs `write` and, where the host watches diagnostics (VS Code) and tools.diagnosticsAfterEdit is not
 * "off", returns the text naming the problems the write introduced in the file ('' when none or unwatched).
 */
export async function writeNotingProblems(ctx: ToolContext, absPath: string, display: string, write: () => Promise<void>): Promise<string> {
  const mode = ctx.settings['tools.diagnosticsAfterEdit'];
  const watch = mode === 'off' ? undefined : await ctx.watchProblems?.(absPath, ctx.signal);
  try {
    await write();
    if (!watch) return '';
    return formatIntroduced(display, introducedProblems(watch.before, await watch.after(), mode));
  } finally {
    watch?.dispose();
  }
}
