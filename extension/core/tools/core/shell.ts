import * as fs from 'node:fs';
import { z } from 'zod';
import { outcomeResult } from '../exec/outcome-result';
import { runProcess } from '../exec/run-process';
import { displayPath, resolveToolPath } from '../paths';
import { defineTool, errorResult } from '../types';
import { TOOL } from '../names';

const input = z.strictObject({
  command: z.string().min(1).describe('The bash command line to run.'),
  cwd: z.string().min(1).optional().describe('Folder to run in, relative to the workspace root (default: the workspace root).'),
  timeout_s: z.number().int().min(1).max(86_400).optional().describe('Seconds before the command and everything it started are killed (default: the tools.shellTimeoutS setting).'),
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
    'Run a command with bash -c in the workspace and return its combined stdout/stderr and exit code. ' +
    'Long output is cut to its head and tail; the full output is saved to a file you can read_file. ' +
    'Stdin is closed, so interactive prompts fail: pass flags such as --yes. Use read_file/grep/glob rather than cat/grep/find.',
  input,
  describeCall: (a) => `run: ${oneLine(a.command)}`,
  // The approval shows the whole command: nothing the user approves may be hidden.
  approval: (a) => ({ summary: `run: ${a.command}`, paths: a.cwd ? [{ path: a.cwd, write: false }] : [] }),
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
