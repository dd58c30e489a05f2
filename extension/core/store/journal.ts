/**
 * state.db.journal: one JSON line per write operation ({"q":seq,"o":op,"a":args}), appended and
 * fdatasync'ed at each commit. A line counts only when it ends in "\n": a kill during a write leaves
 * an unterminated (torn) last line, which reading drops. A bad line followed by more lines means
 * the file was damaged some other way; reading stops there and reports it.
 */
import * as fs from 'node:fs';
import { isOpName, type JournalOp } from './ops';

export interface JournalRead {
  ops: JournalOp[];
  /** Bytes of whole, valid lines from the start; anything after is torn or corrupt. */
  validBytes: number;
  /** The last line was cut short (dropped, not an error). */
  torn: boolean;
  /** Why reading stopped early with more lines after the bad one. */
  corrupt?: string;
}

function parseLine(text: string, prevSeq: number): JournalOp | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const op = v as Partial<JournalOp> | null;
  if (!op || typeof op !== 'object' || !Number.isSafeInteger(op.q) || !isOpName(op.o) || typeof op.a !== 'object' || op.a === null) {
    return 'not an operation';
  }
  if ((op.q as number) <= prevSeq) return `sequence ${op.q} after ${prevSeq}`;
  return op as JournalOp;
}

/** Parses journal bytes. */
export function parseJournal(buf: Buffer): JournalRead {
  const ops: JournalOp[] = [];
  let start = 0;
  let prevSeq = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start);
    if (nl < 0) return { ops, validBytes: start, torn: true };
    const parsed = parseLine(buf.toString('utf8', start, nl), prevSeq);
    if (typeof parsed === 'string') {
      const rest = buf.subarray(nl + 1);
      const moreLines = rest.some((b) => b !== 0x0a && b !== 0x00 && b !== 0x20);
      if (!moreLines) return { ops, validBytes: start, torn: true };
      const lineNo = buf.subarray(0, start).reduce((n, b) => (b === 0x0a ? n + 1 : n), 1);
      return { ops, validBytes: start, torn: false, corrupt: `line ${lineNo}: ${parsed}` };
    }
    ops.push(parsed);
    prevSeq = parsed.q;
    start = nl + 1;
  }
  return { ops, validBytes: start, torn: false };
}

/** Reads the journal file; a missing file reads as empty. Throws when the file exists but cannot be read. */
export function readJournal(file: string): JournalRead {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ops: [], validBytes: 0, torn: false };
    throw e;
  }
  return parseJournal(buf);
}

export function journalLine(op: JournalOp): string {
  return JSON.stringify(op) + '\n';
}
