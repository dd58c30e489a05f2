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

/** How long the exit waits for tool process trees to end (their TERM grace, the KILL, and a margin). */
const STOP_RUNS_MS = KILL_GRACE_MS + 1500;

export interface StopHandle {
  /** The first stop signal received, if any. */
  readonly received: StopSignal | undefined;
  /** The exit status for the signal received, else `code`. */
  exitCode(code: number): number;
  /** The work is over: a stop signal from now on exits at once. */
  dispose(): void;
}

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP abort `controller`, so the turn stops, its round is
 * recorded and the store closes as usual. A stop signal after that (a second one, or one after
 * `dispose`, while the CLI is exiting) kills the tool processes at once and exits.
 */
export function onStopSignals(controller: AbortController): StopHandle {
  let received: StopSignal | undefined;
  let disposed = false;
  for (const sig of STOP_SIGNALS) {
    process.on(sig, () => {
      if (received || disposed) {
        killLiveRunsSync();
        process.exit(SIGNAL_EXIT[received ?? sig]);
      }
      received = sig;
      controller.abort();
    });
  }
  return {
    get received() {
      return received;
    },
    exitCode: (code) => (received ? SIGNAL_EXIT[received] : code),
    dispose: () => void (disposed = true),
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
 * makes writes fail with EPIPE or EIO, which must not crash the CLI; and no exit path leaves a
 * tool process running.
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
