/**
 * How the CLI ends: stop signals abort the work in progress, tool processes never outlive the
 * CLI, and nothing written to stdout or stderr is lost when they are pipes.
 */
import { KILL_GRACE_MS } from '../core/tools/exec/kill-tree';
import { killLiveRunsSync, stopLiveRuns } from '../core/tools/exec/live-runs';

/** Exit status after each stop signal: 128 + its number, as shells report it. */
export const SIGNAL_EXIT: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
const STOP_SIGNALS = Object.keys(SIGNAL_EXIT) as StopSignal[];

/**
 * Exit status when the reader of stdout went away during a turn (`snowpea run ... | head`): 141,
 * what a shell reports for a command SIGPIPE ended (128 + 13). Node ignores SIGPIPE; the CLI
 * sees EPIPE on its next write to stdout and stops the turn as Ctrl-C does.
 */
export const READER_GONE_EXIT = 141;
/** Why the work was stopped: a stop signal, or `EPIPE` (stdout's reader went away). */
export type StopReason = StopSignal | 'EPIPE';
const STOP_EXIT: Record<StopReason, number> = { ...SIGNAL_EXIT, EPIPE: READER_GONE_EXIT };

/** How long the exit waits for tool process trees to end (their TERM grace, the KILL, and a margin). */
const STOP_RUNS_MS = KILL_GRACE_MS + 1500;

export interface StopHandle {
  /** What stopped the work first, if anything: a stop signal, or EPIPE on stdout. */
  readonly received: StopReason | undefined;
  /** The exit status for what stopped the work, else `code`. */
  exitCode(code: number): number;
  /** The work is over: a stop signal from now on exits at once, and a closed stdout is no longer a stop. */
  dispose(): void;
}

/** A write to stdout failed because its reader is gone (a pipe closed: EPIPE). */
export function isReaderGone(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP abort `controller`, so the turn stops, its round is
 * recorded and the store closes as usual. A stop signal after that (a second one, or one after
 * `dispose`, while the CLI is exiting) kills the tool processes at once and exits.
 * With `readerGone` (snowpea run), stdout failing with EPIPE (its reader went away: `| head`)
 * aborts `controller` the same way: nobody reads the rest, so no more is asked of the model and
 * no more tools run.
 */
export function onStopSignals(controller: AbortController, readerGone?: { stdout: NodeJS.WritableStream }): StopHandle {
  let received: StopReason | undefined;
  let disposed = false;
  for (const sig of STOP_SIGNALS) {
    process.on(sig, () => {
      if (received || disposed) {
        killLiveRunsSync();
        process.exit(STOP_EXIT[received ?? sig]);
      }
      received = sig;
      controller.abort();
    });
  }
  const onStdoutError = (e: unknown) => {
    if (disposed || received || !isReaderGone(e)) return;
    received = 'EPIPE';
    controller.abort();
  };
  readerGone?.stdout.on('error', onStdoutError);
  return {
    get received() {
      return received;
    },
    exitCode: (code) => (received ? STOP_EXIT[received] : code),
    dispose: () => {
      disposed = true;
      readerGone?.stdout.off('error', onStdoutError);
    },
  };
}

/** Resolves when everything written to `stream` so far has been handed to the OS (or the stream failed). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    try {
      stream.write('', () => resolve());
    } catch {
      resolve();
    }
  });
}

let guarded = false;

/**
 * Installed once at start: a reader that goes away (`snowpea ... | head`, a closed terminal)
 * makes writes fail with EPIPE or EIO, which must not crash the CLI (during a turn, EPIPE on
 * stdout also stops it: onStopSignals); and no exit path leaves a tool process running.
 */
export function guardProcess(): void {
  if (guarded) return;
  guarded = true;
  for (const s of [process.stdout, process.stderr]) s.on('error', () => {});
  process.on('exit', () => void killLiveRunsSync());
}

/**
 * Ends the CLI with `code`: stops every tool process tree still running (TERM, grace, KILL),
 * waits until stdout and stderr have drained into their pipes, then exits.
 */
export async function exitCli(code: number): Promise<never> {
  await stopLiveRuns(STOP_RUNS_MS);
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}
