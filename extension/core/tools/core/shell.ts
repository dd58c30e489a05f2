import * as fs from 'node:fs';
import { z } from 'zod';
import { outcomeResult } from '../exec/outcome-result';
import { runProcess } from '../exec/run-process';
import { displayPath, resolveToolPath } from '../paths';
import { defineTool, errorResult } from '../types';
import { TOOL } from '../names';

const input = z.strictObject({
  command: z.string().min(1).describe('Bash command line.'),
  cwd: z.string().min(1).optional().describe('Folder to run in (default: workspace root).'),
  timeout_s: z.number().int().min(1).max(86_400).optional().describe('Timeout in seconds (default: tools.shellTimeoutS).'),
});

const oneLine = (s: string, max = 120) => {
  const flat = s.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export const shellTool = defineTool({
  name: TOOL.shell,
  traits: { readOnly: false, repeat: 'scan', subagents: true, images: false },
  group: 'core',
  permission: 'exec',
  deferred: false,
  summary: 'Run a bash command in the workspace (builds, tests, git, installs).',
  description:
    'Run a bash command in the workspace; returns stdout/stderr and the exit code. Long output keeps head and tail (the full output is saved to a file). Stdin is closed: pass --yes to prompts. Prefer read_file/grep/glob to cat/grep/find.',
  input,
  describeCall: (a) => `run: ${oneLine(a.command)}`,
  // The approval shows the whole command: nothing the user approves may be hidden.
  approval: (a) => ({ summary: `run: ${a.command}`, paths: a.cwd ? [{ path: a.cwd, write: false }] : [], command: { line: a.command, ...(a.cwd ? { cwd: a.cwd } : {}) } }),
  async run(args, ctx) {
    const cwd = resolveToolPath(ctx.workspaceRoot, args.cwd ?? '.');
    if (!cwd.exists || !fs.statSync(cwd.real).isDirectory()) {
      return errorResult('not_found', `cwd ${cwd.display} is not an existing folder; give a folder relative to the workspace root.`);
    }
    const timeoutS = args.timeout_s ?? ctx.settings['tools.shellTimeoutS'];
    const outcome = await runProcess(
      {
        command: 'bash',
        args: ['-c', args.command],
        cwd: cwd.real,
        timeoutMs: timeoutS * 1000,
        signal: ctx.signal,
        maxChars: ctx.settings['tools.outputMaxChars'],
        scratchDir: ctx.scratchDir,
        label: 'shell',
        onOutput: ctx.onOutput,
      },
      (p) => displayPath(ctx.workspaceRoot, p),
    );
    return outcomeResult(outcome, 'command', timeoutS);
  },
});
