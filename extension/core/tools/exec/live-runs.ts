/**
 * Tool process runs that have started and not finished, so a program about to exit (the CLI on
 * Ctrl-C, SIGTERM or SIGHUP) can end every one of them first instead of leaving them running.
 */
import { spawnSync } from 'node:child_process';
import { runProcesses } from './proc-scan';

interface LiveRun {
  /** The run's leader: a process group of its own (started detached). */
  pid: number;
  /** The run's SNOWPEA_RUN_ID value, to find processes that left the group. */
  marker: string;
  /** Starts (or joins) the run's TERM-grace-KILL kill and resolves when the run has finished. */
  stop(): Promise<void>;
}

const live = new Set<LiveRun>();

/** Registers a run; call the returned function when it has finished. */
export function trackLiveRun(run: LiveRun): () => void {
  live.add(run);
  return () => void live.delete(run);
}

/**
 * Stops every live run (SIGTERM, a grace period, then SIGKILL for what is left: see killTree) and
 * waits for them to finish, at most `timeoutMs`; then SIGKILLs synchronously whatever is still
 * there. Resolves with the number of runs that were live.
 */
export async function stopLiveRuns(timeoutMs: number): Promise<number> {
  const runs = [...live];
  if (!runs.length) return 0;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)));
  await Promise.race([Promise.all(runs.map((r) => r.stop().catch(() => {}))), deadline]);
  clearTimeout(timer);
  killLiveRunsSync();
  return runs.length;
}

function sigkill(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/**
 * SIGKILLs every live run's process group and every process it started (found through /proc by
 * parent chain and marker), synchronously: safe in a process 'exit' handler. Returns how many
 * runs were live.
 */
export function killLiveRunsSync(): number {
  const runs = [...live];
  for (const run of runs) {
    live.delete(run);
    if (process.platform === 'win32') {
      spawnSync('taskkill', ['/pid', String(run.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      continue;
    }
    const members = runProcesses(run.pid, run.marker);
    sigkill(-run.pid);
    sigkill(run.pid);
    for (const p of members) sigkill(p);
  }
  return runs.length;
}
