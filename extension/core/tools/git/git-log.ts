import { z } from 'zod';
import { capText } from '../exec/cap-text';
import { defineTool, okResult } from '../types';
import { gitOrError } from './run-git';
import { TOOL } from '../names';

const DEFAULT_COUNT = 20;

const input = z.strictObject({
  path: z.string().min(1).optional().describe('Only commits touching this file or folder.'),
  max_count: z.number().int().min(1).max(500).optional().describe(`Most commits to show (default ${DEFAULT_COUNT}).`),
});

export const gitLogTool = defineTool({
  name: TOOL.git_log,
  traits: { readOnly: true, repeat: 'plain', subagents: true, images: false, needsTrust: true },
  group: 'git',
  permission: 'read',
  deferred: true,
  summary: 'Show recent commits (git log).',
  description: 'Show recent commits, newest first, one per line: short hash, date, author, subject. Optionally only those touching a path.',
  input,
  describeCall: (a) => `git log${a.path ? ` ${a.path}` : ''}`,
  approval: (a) => ({ paths: a.path ? [{ path: a.path, write: false }] : [] }),
  async run(args, ctx) {
    const cmd = ['log', `--max-count=${args.max_count ?? DEFAULT_COUNT}`, '--date=short', '--pretty=format:%h %ad %an: %s', ...(args.path ? ['--', args.path] : [])];
    const r = await gitOrError('git_log', cmd, ctx);
    if ('error' in r) {
      if (/does not have any commits yet/i.test(r.error.content)) return okResult('no commits yet');
      return r.error;
    }
    if (!r.out.stdout.trim()) return okResult(`no commits${args.path ? ` touch ${args.path}` : ''}`);
    return okResult(await capText(r.out.stdout.trimEnd(), ctx, 'git-log'));
  },
});
