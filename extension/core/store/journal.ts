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

function writeAll(fd: number, buf: Buffer, position: number): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off, position + off);
}

/** The open journal: appends whole commits and keeps track of its size. */
export class JournalWriter {
  private fd: number;
  size: number;

  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT);
    this.size = fs.fstatSync(this.fd).size;
  }

  /** Cuts the file to `bytes` (drops a torn tail before appending after it). */
  truncate(bytes: number): void {
    fs.ftruncateSync(this.fd, bytes);
    fs.fdatasyncSync(this.fd);
    this.size = bytes;
  }

  /** Writes `text` at the end and makes it durable. On failure the file is cut back and the error thrown. */
  commit(text: string): void {
    const buf = Buffer.from(text, 'utf8');
    try {
      writeAll(this.fd, buf, this.size);
      fs.fdatasyncSync(this.fd);
    } catch (e) {
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        // the next commit rewrites from this.size anyway
      }
      throw e;
    }
    this.size += buf.length;
  }

  /**
   * Keeps only the bytes from `offset` on (the lines a finished fold did not cover): they are
   * written to a temporary file that replaces the journal, so a crash leaves the old or the new one.
   */
  dropBefore(offset: number): void {
    if (offset >= this.size) return this.truncate(0);
    const tail = Buffer.alloc(this.size - offset);
    fs.readSync(this.fd, tail, 0, tail.length, offset);
    const tmp = `${this.file}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    try {
      writeAll(fd, tail, 0);
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.closeSync(this.fd);
    try {
      fs.renameSync(tmp, this.file);
      this.size = tail.length;
    } finally {
      this.fd = fs.openSync(this.file, fs.constants.O_RDWR);
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
