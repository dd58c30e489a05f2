/**
 * Reads a file the user did not name (instruction files, memory, skills) only when it is safe to
 * put in the prompt: its real path (symlinks followed) lies inside `within`, it is a regular file,
 * and at most a bounded number of bytes is read. A repository can ship `AGENTS.md -> /proc/self/environ`;
 * that must read nothing (red-team H5, M1).
 */
import * as fs from 'node:fs';
import { READ_NONBLOCK, specialKind } from './file-kind';
import { isWithin } from './paths';

export type ConfinedRead =
  /** `head` is the whole file when `truncated` is false; else its first bytes, and `tail` its last. */
  | { kind: 'ok'; real: string; size: number; truncated: boolean; head: Buffer; tail: Buffer }
  | { kind: 'missing' }
  | { kind: 'folder' }
  /** Not read, and why (for the log): a link leading outside, a FIFO or device, an unreadable file. */
  | { kind: 'skipped'; why: string };

export interface ConfinedOptions {
  /** Read at most this many bytes; a longer file is truncated. */
  maxBytes: number;
  /** For a truncated file: how many of `maxBytes` come from its end (default 0: the head only). */
  tailBytes?: number;
  /** How the file is named in `why` (default: its path). */
  label?: string;
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

function readUpTo(fd: number, limit: number, position: number | null = null): Buffer {
  const buf = Buffer.alloc(limit);
  let got = 0;
  while (got < limit) {
    const n = fs.readSync(fd, buf, got, limit - got, position === null ? null : position + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Reads `file` when its real path is inside `within` (a folder; compared by real path) and it is a regular file, bounded by `maxBytes`. */
export function readConfined(file: string, within: string, o: ConfinedOptions): ConfinedRead {
  const label = o.label ?? file;
  try {
    fs.lstatSync(file);
  } catch {
    return { kind: 'missing' };
  }
  let real: string;
  let root: string;
  try {
    real = fs.realpathSync.native(file);
  } catch {
    return { kind: 'skipped', why: `${label} is a link to a missing file` };
  }
  try {
    root = fs.realpathSync.native(within);
  } catch {
    return { kind: 'skipped', why: `${label}: ${within} cannot be resolved` };
  }
  if (!isWithin(root, real)) return { kind: 'skipped', why: `${label} links to ${real}, outside ${root}` };
  let fd: number;
  try {
    const st = fs.lstatSync(real);
    if (st.isDirectory()) return { kind: 'folder' };
    const kind = specialKind(st);
    if (kind || !st.isFile()) return { kind: 'skipped', why: `${label} is not a regular file (${kind ?? 'unknown kind'})` };
    // O_NOFOLLOW and O_NONBLOCK: a link or FIFO swapped in after the check is refused, not followed or waited on.
    fd = fs.openSync(real, READ_NONBLOCK | O_NOFOLLOW);
  } catch (e) {
    return { kind: 'skipped', why: `${label} could not be opened (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { kind: 'skipped', why: `${label} is not a regular file` };
    const head = readUpTo(fd, o.maxBytes + 1);
    if (head.length <= o.maxBytes) return { kind: 'ok', real, size: head.length, truncated: false, head, tail: Buffer.alloc(0) };
    const tailBytes = Math.max(0, Math.min(o.tailBytes ?? 0, o.maxBytes));
    const size = Math.max(st.size, o.maxBytes + 1);
    const tail = tailBytes > 0 ? readUpTo(fd, tailBytes, size - tailBytes) : Buffer.alloc(0);
    return { kind: 'ok', real, size, truncated: true, head: head.subarray(0, o.maxBytes - tailBytes), tail };
  } catch (e) {
    return { kind: 'skipped', why: `${label} could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  } finally {
    fs.closeSync(fd);
  }
}
