import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { scrubbedEnv } from '../../os/child-env';
import { killTree, type KillReport } from './kill-tree';
import { trackLiveRun } from './live-runs';
import { OutputCapture, type CapturedOutput } from './output-capture';
import { RUN_MARKER_VAR } from './proc-scan';
import { execFailure, underSubreaper } from './subreaper';

export interface RunProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Most characters of output the caller keeps (head + tail); the rest goes only to the file. */
  maxChars: number;
  scratchDir: string;
  /** File-name prefix of the saved output (shell, python). */
  label: string;
  onOutput?(chunk: string): void;
  env?: NodeJS.ProcessEnv;
}

export interface ProcessOutcome {
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  /** The program could not be started (ENOENT when it is not installed). */
  spawnError?: NodeJS.ErrnoException;
  /** The command exited but a background process it started kept the output open; reading stopped. */
  heldOpen: boolean;
  output: CapturedOutput;
  /** After a timeout or cancel: what the kill left running. */
  kill?: KillReport;
  /** The run started under the child subreaper (see subreaper.ts): its orphans stayed its descendants. */
  reaped?: boolean;
}

/** How long to keep reading after the main process exits, for output still in the pipes. */
const DRAIN_AFTER_EXIT_MS = 500;
/** ...and at most this long when a background process keeps writing. */
const MAX_READ_AFTER_EXIT_MS = 3000;

/**
 * Environment for tool processes: no model-provider API keys (see core/os/child-env.ts), and no pagers or
 * credential prompts waiting on a terminal that is not there.
 */
export function toolEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return scrubbedEnv({ PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', ...extra });
}

/**
 * Runs a program in its own process group, streaming stdout+stderr (interleaved) to `onOutput` and to a file,
 * keeping a bounded head/tail in memory. Timeout and abort kill the whole group and every process the run
 * started (SIGTERM, then SIGKILL; see killTree).
 */
export async function runProcess(o: RunProcessOptions, displayPath: (p: string) => string): Promise<ProcessOutcome> {
  const run = await underSubreaper(o.command, o.args);
  return new Promise((resolve) => {
    const capture = new OutputCapture(o.maxChars, o.scratchDir, o.label);
    let timedOut = false;
    let cancelled = false;
    let heldOpen = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let done = false;
    let killing: Promise<KillReport> | undefined;
    // Every process of this run inherits the marker, so the kill finds even orphaned `setsid` ones.
    const marker = randomBytes(8).toString('hex');

    const child = spawn(run.command, run.args, {
      cwd: o.cwd,
      env: { ...(o.env ?? toolEnv()), [RUN_MARKER_VAR]: marker },
      detached: process.platform !== 'win32',
      // fd 3: the subreaper's status pipe (closed on exec; an exec failure is written there).
      stdio: run.reaped ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const streams = [child.stdout, child.stderr].filter((s): s is Readable => s !== null);
    const statusPipe = run.reaped ? (child.stdio[3] as Readable | null) : null;
    let status = '';
    let statusDone!: () => void;
    const statusRead = new Promise<void>((r) => {
      statusDone = r;
      if (!statusPipe) return r();
      statusPipe.setEncoding('utf8');
      statusPipe.on('data', (t: string) => (status += t));
      statusPipe.on('close', () => r());
      statusPipe.on('error', () => r());
    });

    const kill = () => {
      if (!killing && child.pid !== undefined) killing = killTree(child.pid, undefined, marker);
    };
    let finished!: () => void;
    const ended = new Promise<void>((r) => (finished = r));
    // Until it finishes, a program exiting (the CLI on a signal) can stop this run with the rest.
    const untrack =
      child.pid === undefined
        ? () => {}
        : trackLiveRun({
            pid: child.pid,
            marker,
            stop: async () => {
              kill();
              await ended;
            },
          });
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, o.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    if (o.signal.aborted) onAbort();
    else o.signal.addEventListener('abort', onAbort, { once: true });

    let paused = false;
    let lastActivity = Date.now();
    for (const s of streams) {
      const decoder = new StringDecoder('utf8');
      s.on('data', (buf: Buffer) => {
        lastActivity = Date.now();
        const text = decoder.write(buf);
        if (!text) return;
        o.onOutput?.(text);
        if (!capture.push(text) && !paused) {
          paused = true;
          for (const p of streams) p.pause();
          capture.onDrain(() => {
            paused = false;
            lastActivity = Date.now();
            for (const p of streams) p.resume();
          });
        }
      });
      s.on('end', () => capture.push(decoder.end()));
      s.on('error', () => {
        /* a destroyed pipe ends the read; nothing else to do */
      });
    }

    const finish = async () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      const report = await killing;
      await statusRead;
      spawnError ??= execFailure(status, o.command);
      untrack();
      finished();
      const output = await capture.finish(displayPath);
      resolve({ exitCode, exitSignal, timedOut, cancelled, spawnError, heldOpen, output, reaped: run.reaped, ...(report ? { kill: report } : {}) });
    };

    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = e;
      statusDone();
      void finish();
    });
    child.on('exit', (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      // A background process (`server &`) may keep the pipes open: once they go quiet, stop reading.
      const exitedAt = Date.now();
      const watch = setInterval(() => {
        if (done) return clearInterval(watch);
        if (paused) return;
        if (Date.now() - lastActivity < DRAIN_AFTER_EXIT_MS && Date.now() - exitedAt < MAX_READ_AFTER_EXIT_MS) return;
        clearInterval(watch);
        heldOpen = true;
        for (const s of streams) s.destroy();
        child.unref();
        void finish();
      }, 100);
      watch.unref();
    });
    child.on('close', () => void finish());
  });
}
