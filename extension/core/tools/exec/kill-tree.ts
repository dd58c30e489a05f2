import { spawn } from 'node:child_process';
import { canScanProcesses, processRunning, runProcesses } from './proc-scan';

/** Grace between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** How long to wait for SIGKILLed processes to be gone before calling them survivors. */
const AFTER_KILL_MS = 1000;
const POLL_MS = 50;

export interface KillReport {
  /** Processes still running after SIGKILL (pids). */
  survivors: number[];
  /** Descendants outside the process group were looked for (Linux /proc); false means only the group was signalled. */
  tracked: boolean;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    /* gone, or not ours */
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Kills a process started with `detached: true`, its process group, and (on Linux) every
 * descendant found through /proc, including ones in their own session (`setsid`) and orphans that
 * carry the run's `marker`: SIGTERM first, SIGKILL after a grace period. On Windows, taskkill /T.
 * Returns the processes that were still running at the end.
 */
export async function killTree(pid: number, graceMs = KILL_GRACE_MS, marker?: string): Promise<KillReport> {
  if (process.platform === 'win32') {
    await new Promise<void>((resolve) => {
      const k = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      k.on('exit', () => resolve());
      k.on('error', () => resolve());
    });
    return { survivors: [], tracked: false };
  }
  const tracked = canScanProcesses();
  // Stop them first so none forks new children or escapes between the scan and the signals.
  let members = runProcesses(pid, marker);
  for (const p of members) signal(p, 'SIGSTOP');
  members = [...new Set([...members, ...runProcesses(pid, marker)])];
  signal(-pid, 'SIGTERM');
  for (const p of members) {
    signal(p, 'SIGTERM');
    signal(p, 'SIGCONT');
  }
  const anyAlive = () => groupAlive(pid) || members.some(processRunning);
  for (let waited = 0; waited < graceMs && anyAlive(); waited += POLL_MS) await sleep(POLL_MS);
  const left = [...new Set([...members.filter(processRunning), ...runProcesses(pid, marker)])];
  signal(-pid, 'SIGKILL');
  for (const p of left) signal(p, 'SIGKILL');
  for (let waited = 0; waited < AFTER_KILL_MS && (groupAlive(pid) || left.some(processRunning)); waited += POLL_MS) await sleep(POLL_MS);
  return { survivors: left.filter(processRunning), tracked };
}
