/**
 * Finds the processes a tool run started, on Linux, from /proc: descendants by their parent chains,
 * plus any process whose environment carries the run's marker (this finds ones that were orphaned
 * and re-parented, e.g. `(setsid sleep 9 &)`). Elsewhere there is no /proc and the lists are empty.
 */
import * as fs from 'node:fs';

/** The variable runProcess puts in every tool process's environment; its value identifies the run. */
export const RUN_MARKER_VAR = 'SNOWPEA_RUN_ID';

export const canScanProcesses = (): boolean => process.platform === 'linux' && fs.existsSync('/proc/self/stat');

interface ProcInfo {
  pid: number;
  ppid: number;
  zombie: boolean;
}

function readStat(pid: number): ProcInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), zombie: fields[0] === 'Z' };
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  try {
    return fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return [];
  }
}

/** Whether the process's environment holds the entry `entry` (NUL-separated, first or later). */
function hasMarker(pid: number, entry: string): boolean {
  try {
    const env = fs.readFileSync(`/proc/${pid}/environ`);
    return env.includes(Buffer.from(`\0${entry}\0`)) || env.subarray(0, entry.length + 1).equals(Buffer.from(`${entry}\0`));
  } catch {
    return false; // another user's process, or gone
  }
}

/** Live (non-zombie) processes under `root` or marked with `marker`, not `root` itself or this process. */
export function runProcesses(root: number, marker?: string): number[] {
  if (!canScanProcesses()) return [];
  const infos = allPids().map(readStat).filter((p): p is ProcInfo => p !== undefined);
  const children = new Map<number, number[]>();
  for (const p of infos) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const found = new Set<number>();
  const queue = [root];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      if (!found.has(c)) {
        found.add(c);
        queue.push(c);
      }
    }
  }
  if (marker) {
    const entry = `${RUN_MARKER_VAR}=${marker}`;
    for (const p of infos) if (!found.has(p.pid) && p.pid !== process.pid && hasMarker(p.pid, entry)) found.add(p.pid);
  }
  const zombies = new Set(infos.filter((p) => p.zombie).map((p) => p.pid));
  return [...found].filter((pid) => pid !== root && pid !== process.pid && !zombies.has(pid));
}

/** Whether a process is running (a zombie counts as gone). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const info = canScanProcesses() ? readStat(pid) : undefined;
  return info ? !info.zombie : true;
}
