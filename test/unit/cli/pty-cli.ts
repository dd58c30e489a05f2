/**
 * The built CLI on a pseudo-terminal (util-linux `script`), as a user at a terminal runs it: stdin
 * and stderr are TTYs, so questions are asked. The test answers each question when its text has
 * appeared, and gets the raw bytes the terminal received (escape sequences included).
 */
import { spawn } from 'node:child_process';
import { cliBundle, cliEnv } from './cli-process';

export interface PtyRun {
  code: number | null;
  /** Everything written to the terminal, stdout and stderr interleaved as a terminal shows them (LF written as CR LF). */
  raw: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `snowpea ARGS` on a terminal; each `answers` entry is typed (with Enter) once `when` matches the output after the previous answer. */
export function ptyCli(args: string[], opts: { cwd: string; home: string; env?: Record<string, string>; answers?: Array<{ when: RegExp; type: string }>; limitMs?: number }): Promise<PtyRun> {
  const command = [process.execPath, cliBundle, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: opts.cwd, env: { ...cliEnv(opts.home, opts.env), TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = [...(opts.answers ?? [])];
  let raw = '';
  let from = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    raw += d;
    const next = answers[0];
    // readline follows the question with cursor moves (ESC [ n G): matched without them.
    // eslint-disable-next-line no-control-regex
    if (next && next.when.test(raw.slice(from).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''))) {
      answers.shift();
      from = raw.length;
      child.stdin.write(`${next.type}\r`);
    }
  });
  child.stdin.on('error', () => {});
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.limitMs ?? 40000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.end();
      resolve({ code, raw });
    }),
  );
}

/** The terminal's lines (CR LF and lone CR split), for finding the question line. */
export function lines(raw: string): string[] {
  return raw.split(/\r?\n|\r/);
}
