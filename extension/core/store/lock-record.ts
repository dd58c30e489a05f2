/**
 * What a state.db lock file says about its owner, and whether that owner still runs. A record is
 * one JSON line: pid, the process's start time (Linux: /proc/<pid>/stat field 22, clock ticks
 * since boot), hostname and a random token. A pid that now belongs to another process (a reboot,
 * a container restart) has another start time, so the lock counts as stale.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';

export interface LockRecord {
  pid: number;
  /** null where the platform does not tell (not Linux), or in a lock written by an older Snowpea. */
  start: string | null;
  host: string | null;
  token: string;
}

/** What is in a lock file right now; `record` is null when it is empty or unreadable as a lock. */
export interface LockSeen {
  raw: string;
  ino: number;
  mtimeMs: number;
  record: LockRecord | null;
}

/** The start time of process `pid` (Linux), or null. */
export function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the name) is in parentheses and may hold spaces; fields from 3 on follow the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[22 - 3] ?? null;
  } catch {
    return null;
  }
}

export function ownRecord(): LockRecord {
  return { pid: process.pid, start: processStart(process.pid), host: os.hostname(), token: randomBytes(12).toString('hex') };
}

export function parseRecord(raw: string): LockRecord | null {
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    // An older Snowpea wrote the pid alone.
    const pid = Number(text);
    return Number.isSafeInteger(pid) && pid > 0 ? { pid, start: null, host: null, token: `legacy-${pid}` } : null;
  }
  try {
    const v = JSON.parse(text) as Partial<LockRecord>;
    if (!Number.isSafeInteger(v.pid) || (v.pid as number) <= 0 || typeof v.token !== 'string') return null;
    return { pid: v.pid as number, start: typeof v.start === 'string' ? v.start : null, host: typeof v.host === 'string' ? v.host : null, token: v.token };
  } catch {
    return null;
  }
}

/** The lock file's content, or null when there is none. */
export function readLock(lock: string): LockSeen | null {
  let fd: number;
  try {
    fd = fs.openSync(lock, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    const raw = fs.readFileSync(fd, 'utf8');
    return { raw, ino: st.ino, mtimeMs: st.mtimeMs, record: parseRecord(raw) };
  } finally {
    fs.closeSync(fd);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process that wrote `seen` may still run. Another host's process cannot be checked,
 * so it counts as running. A legacy record (pid only) whose process started after the lock was
 * written belongs to a reused pid.
 */
export function ownerRuns(seen: LockSeen & { record: LockRecord }): boolean {
  const r = seen.record;
  if (r.host !== null && r.host !== os.hostname()) return true;
  if (!pidAlive(r.pid)) return false;
  const start = processStart(r.pid);
  if (r.start !== null) return start === null || start === r.start;
  if (start === null) return true;
  const startedAtMs = bootTimeMs() + (Number(start) * 1000) / 100; // USER_HZ is 100 on Linux
  return !(startedAtMs > seen.mtimeMs + 2000);
}

function bootTimeMs(): number {
  try {
    const m = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    return m ? Number(m[1]) * 1000 : 0;
  } catch {
    return 0;
  }
}
