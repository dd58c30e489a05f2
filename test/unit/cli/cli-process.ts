/**
 * The built CLI as a child process the test controls: signals, stdin, and the processes it left.
 * (run-cli.ts's cli() covers the plain runs.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliBundle } from './run-cli';
import { waitUntil } from '../../fixtures/eventually';

export { cliBundle };

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function cliEnv(home: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, SNOWPEA_HOME: home, OPENAI_API_KEY: 'sk-cli-secret', ...env };
}

/** Starts the CLI; `stdin` is written and closed when given. */
export function startCli(args: string[], opts: { cwd: string; home: string; env?: Record<string, string>; stdin?: string }): { child: ChildProcess; exited: Promise<Exited> } {
  const child = spawn(process.execPath, [cliBundle, ...args], { cwd: opts.cwd, env: cliEnv(opts.home, opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdin!.on('error', () => {});
  child.stdin!.end(opts.stdin ?? '');
  const exited = new Promise<Exited>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, exited };
}

/** Pids of live (not zombie) processes whose command line contains `needle`, the CLI itself (whose arguments may hold it) left out. */
export function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (cmd.includes(needle) && !cmd.includes(cliBundle) && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z') found.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return found;
}

export async function waitFor(what: string, check: () => boolean, limitMs = 20000): Promise<void> {
  await waitUntil(check, what, limitMs);
}

/** Kills leftovers a failed test would leave (by pid, never by name). */
export function killAll(pids: number[]): void {
  for (const p of pids) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

function runToEnd(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; stdout?: number }): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', opts.stdout ?? 'ignore', 'ignore'] });
    child.on('close', (code) => resolve(code ?? -1));
  });
}

/**
 * Runs `node dist/cli.js ARGS | (sleep 1; cat > OUT)` in bash: the CLI's stdout is a pipe read
 * only after a second, so most of what it writes waits in the pipe. Returns what the reader got
 * and the CLI's exit status.
 */
export async function pipeIntoSlowReader(args: string[], opts: { cwd: string; home: string; env?: Record<string, string> }): Promise<{ out: string; code: number }> {
  const out = path.join(opts.cwd, `.slow-reader-${process.pid}-${Date.now()}.out`);
  const script = 'node "$CLI" "$@" | (sleep 1; cat > "$OUT"); exit "${PIPESTATUS[0]}"';
  const code = await runToEnd('bash', ['-c', script, 'bash', ...args], { cwd: opts.cwd, env: { ...cliEnv(opts.home, opts.env), CLI: cliBundle, OUT: out } });
  const text = fs.readFileSync(out, 'utf8');
  fs.rmSync(out, { force: true });
  return { out: text, code };
}

/** The CLI's stdout written straight to a file (no pipe): the reference output. */
export async function cliToFile(args: string[], opts: { cwd: string; home: string; env?: Record<string, string> }): Promise<{ out: string; code: number }> {
  const out = path.join(opts.cwd, `.to-file-${process.pid}-${Date.now()}.out`);
  const fd = fs.openSync(out, 'w');
  const code = await runToEnd(process.execPath, [cliBundle, ...args], { cwd: opts.cwd, env: cliEnv(opts.home, opts.env), stdout: fd });
  fs.closeSync(fd);
  const text = fs.readFileSync(out, 'utf8');
  fs.rmSync(out, { force: true });
  return { out: text, code };
}
