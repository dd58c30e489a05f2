import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { outcomeResult } from '../exec/outcome-result';
import { runProcess, toolEnv } from '../exec/run-process';
import { displayPath, realRoot } from '../paths';
import { defineTool, errorResult, type AnyTool } from '../types';
import { TOOL } from '../names';

/**
 * Runs the snippet (argv[1]) as __main__ after appending the folders to import from (argv[2:]) at the
 * END of sys.path, so a workspace module can never shadow the standard library. The user's own
 * site-packages come back too (-I drops them).
 */
const PRELUDE = [
  'import os, site, sys',
  '_snowpea_file, *_snowpea_paths = sys.argv[1:]',
  'sys.argv = [_snowpea_file]',
  'if os.path.isdir(site.getusersitepackages()): site.addsitedir(site.getusersitepackages())',
  'sys.path.extend(p for p in _snowpea_paths if p not in sys.path)',
  'del _snowpea_paths',
  "with open(_snowpea_file, 'rb') as _snowpea_f: _snowpea_code = compile(_snowpea_f.read(), _snowpea_file, 'exec')",
  "exec(_snowpea_code, {'__name__': '__main__', '__file__': _snowpea_file, '__builtins__': __builtins__})",
].join('\n');

/**
 * Interpreter flags: -I (isolated: no script folder or cwd on sys.path, PYTHON* variables ignored, so a
 * repository's sitecustomize.py, usercustomize.py or json.py never runs implicitly) and -B (no .pyc files).
 */
export function pythonArgs(snippet: string, root: string, envPath = process.env.PYTHONPATH): string[] {
  const extra = (envPath ?? '').split(path.delimiter).filter(Boolean);
  return ['-I', '-B', '-c', PRELUDE, snippet, ...extra, root];
}

const input = z.strictObject({
  code: z.string().min(1).describe('A complete program; print what you want to see.'),
  timeout_s: z.number().int().min(1).max(86_400).optional().describe('Timeout in seconds (default: tools.shellTimeoutS).'),
});

/** execute_code with a given interpreter (tests point it at a missing one). */
export function makeExecuteCodeTool(python = 'python3'): AnyTool {
  return defineTool({
    name: TOOL.execute_code,
    traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
    group: 'core',
    permission: 'exec',
    deferred: false,
    summary: 'Run a short temporary Python program; leaves no file behind.',
    description:
      'Run a short Python 3 program in the workspace without leaving a file behind; returns its output and exit code.',
    input,
    describeCall: (a) => `run python (${a.code.split('\n').length} lines)`,
    approval: (a) => ({ summary: `run python:\n${a.code}` }),
    async run(args, ctx) {
      const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'snowpea-code-'));
      try {
        const file = path.join(dir, 'snippet.py');
        await fs.promises.writeFile(file, args.code);
        const root = realRoot(ctx.workspaceRoot);
        const timeoutS = args.timeout_s ?? ctx.settings['tools.shellTimeoutS'];
        const outcome = await runProcess(
          {
            command: python,
            args: pythonArgs(file, root),
            cwd: root,
            timeoutMs: timeoutS * 1000,
            signal: ctx.signal,
            maxChars: ctx.settings['tools.outputMaxChars'],
            scratchDir: ctx.scratchDir,
            label: 'python',
            onOutput: ctx.onOutput,
            // Workspace modules stay importable, but after the standard library and installed packages.
            env: toolEnv({ PYTHONDONTWRITEBYTECODE: '1' }),
          },
          (p) => displayPath(ctx.workspaceRoot, p),
        );
        if (outcome.spawnError?.code === 'ENOENT') {
          return errorResult('unavailable', `${python} was not found on PATH, so execute_code cannot run. Install Python 3, or check behaviour with shell instead.`);
        }
        return outcomeResult(outcome, 'program', timeoutS);
      } finally {
        await fs.promises.rm(dir, { recursive: true, force: true });
      }
    },
  });
}

export const executeCodeTool = makeExecuteCodeTool();
