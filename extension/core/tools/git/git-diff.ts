import { z } from 'zod';
import { capText } from '../exec/cap-text';
import { defineTool, okResult } from '../types';
import { gitOrError } from './run-git';
import { TOOL } from '../names';

const input = z.strictObject({
  path: z.string().min(1).optional().describe('Only this file or folder, relative to the workspace root.'),
  staged: z.boolean().optional().describe('Show staged changes (what the next commit holds) instead of unstaged ones (default false).'),
});

export const gitDiffTool = defineTool({
  name: TOOL.git_diff,
  traits: { readOnly: true, repeat: 'plain', subagents: true, images: false, needsTrust: true },
  group: 'git',
  permission: 'read',
  deferred: true,
  summary: 'Show changes as a unified diff (git diff).',
  description: 'Show unstaged changes (or staged ones with staged: true) as a unified diff, optionally for one path. Untracked files do not appear; see git_status.',
  input,
  describeCall: (a) => `git diff${a.staged ? ' --staged' : ''}${a.path ? ` ${a.path}` : ''}`,
  approval: (a) => ({ paths: a.path ? [{ path: a.path, write: false }] : [] }),
  async run(args, ctx) {
    const cmd = ['diff', ...(args.staged ? ['--staged'] : []), ...(args.path ? ['--', args.path] : [])];
    const r = await gitOrError('git_diff', cmd, ctx);
    if ('error' in r) return r.error;
    if (!r.out.stdout.trim()) return okResult(`no ${args.staged ? 'staged' : 'unstaged'} changes${args.path ? ` in ${args.path}` : ''}`);
    return okResult(await capText(r.out.stdout.trimEnd(), ctx, 'git-diff'));
  },
});
