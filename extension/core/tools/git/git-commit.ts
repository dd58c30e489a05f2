import { z } from 'zod';
import { defineTool, errorResult, okResult } from '../types';
import { gitFailure, gitOrError, runGit } from './run-git';
import { TOOL } from '../names';

const input = z.strictObject({
  message: z.string().trim().min(1).describe('The commit message: a short subject line, then a blank line and details if useful.'),
  paths: z.array(z.string().min(1)).min(1).optional().describe('Stage and commit exactly these files (new files included); without it, commit what is already staged.'),
});

export const gitCommitTool = defineTool({
  name: TOOL.git_commit,
  traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
  group: 'git',
  permission: 'exec',
  deferred: true,
  summary: 'Commit staged changes, or the given paths (asks approval).',
  description:
    'Create a commit. With paths: stages those files and commits only them. Without paths: commits what is already staged. ' +
    'Check git_status and git_diff first. The user is asked to approve.',
  input,
  describeCall: (a) => `git commit: ${a.message.split('\n')[0]}`,
  approval: (a) => ({
    summary: `git commit${a.paths ? ` ${a.paths.join(' ')}` : ' (staged changes)'}: ${a.message.split('\n')[0]}`,
    paths: (a.paths ?? []).map((p) => ({ path: p, write: true })),
  }),
  async run(args, ctx) {
    if (args.paths) {
      const add = await gitOrError('git_commit', ['add', '--', ...args.paths], ctx);
      if ('error' in add) return add.error;
    } else {
      // `git diff --cached --quiet` exits 1 when something is staged, 0 when nothing is.
      let staged;
      try {
        staged = await runGit(['diff', '--cached', '--quiet'], ctx);
      } catch {
        return errorResult('unavailable', 'git_commit: the git program could not run.');
      }
      if (staged.code === 0) return errorResult('failed', 'git_commit: nothing is staged. Pass paths to commit those files, or stage changes first.');
      if (staged.code !== 1) return gitFailure('git_commit', staged, ctx);
    }
    const commit = await gitOrError('git_commit', ['commit', '-m', args.message, ...(args.paths ? ['--', ...args.paths] : [])], ctx);
    if ('error' in commit) return commit.error;
    const show = await gitOrError('git_commit', ['show', '--stat', '--format=committed %h: %s', 'HEAD'], ctx);
    return okResult('error' in show ? commit.out.stdout.trim() : show.out.stdout.trim().replace(/\n\n/, '\n'));
  },
});
