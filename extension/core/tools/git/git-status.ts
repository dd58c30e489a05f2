import { z } from 'zod';
import { capText } from '../exec/cap-text';
import { defineTool, okResult } from '../types';
import { gitOrError } from './run-git';
import { TOOL } from '../names';

export const gitStatusTool = defineTool({
  name: TOOL.git_status,
  traits: { readOnly: true, repeat: 'plain', subagents: true, images: false, needsTrust: true },
  group: 'git',
  permission: 'read',
  deferred: true,
  summary: 'Show the branch and changed files (git status).',
  description: 'Show the current branch, its upstream state, and staged, unstaged and untracked files (git status --short --branch).',
  input: z.strictObject({}),
  describeCall: () => 'git status',
  async run(_args, ctx) {
    const r = await gitOrError('git_status', ['status', '--short', '--branch'], ctx);
    if ('error' in r) return r.error;
    const lines = r.out.stdout.trimEnd().split('\n');
    const body = lines.length <= 1 ? `${lines[0] ?? ''}\nnothing to commit, working tree clean` : lines.join('\n');
    return okResult(await capText(body, ctx, 'git-status'));
  },
});
