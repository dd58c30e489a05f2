import { spawn } from 'node:child_process';

/** Grace between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
const POLL_MS = 50;

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills a process started with `detached: true` and everything in its process group:
 * SIGTERM first, SIGKILL after a grace period if anything is left. On Windows, taskkill /T.
 */
export async function killTree(pid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  if (process.platform === 'win32') {
    await new Promise<void>((resolve) => {
      const k = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      k.on('exit', () => resolve());
      k.on('error', () => resolve());
    });
    return;
  }
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  for (let waited = 0; waited < graceMs; waited += POLL_MS) {
    if (!groupAlive(pid)) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* gone meanwhile */
  }
}
