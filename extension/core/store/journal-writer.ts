/**
 * Appends commits to state.db.journal off the event loop. Each append() is a chunk of whole lines;
 * chunks are written in order, batched when several wait (group commit), and each append's promise
 * resolves once its bytes and everything before them are written and fdatasync'ed. A failed write
 * cuts the file back to its last synced size and keeps the unwritten chunks for the next append,
 * so the file never holds a gap or half a chunk followed by later ones.
 */
import * as fs from 'node:fs';
import { promisify } from 'node:util';
import { checkWriteFault } from './files';
import { narrowMode, PRIVATE_FILE_MODE } from '../os/private-files';

const writev = promisify(fs.writev);
const fdatasync = promisify(fs.fdatasync);

interface Waiter {
  resolve(): void;
  reject(e: unknown): void;
}

interface Chunk {
  bufs: Buffer[];
  length: number;
  /** Must finish before these bytes are written (content files the lines refer to). */
  before: (() => Promise<void>) | null;
  waiters: Waiter[];
}

const bytes = (chunks: Chunk[] | null) => (chunks ?? []).reduce((n, c) => n + c.length, 0);

/** `bufs` without their first `n` bytes. */
function skip(bufs: Buffer[], n: number): Buffer[] {
  let i = 0;
  while (i < bufs.length && n >= bufs[i].length) n -= bufs[i++].length;
  const rest = bufs.slice(i);
  if (n > 0 && rest.length) rest[0] = rest[0].subarray(n);
  return rest;
}

export class JournalWriter {
  private fd: number;
  /** Bytes on disk and synced. */
  private durable: number;
  private queue: Chunk[] = [];
  private inflight: Chunk[] | null = null;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, PRIVATE_FILE_MODE);
    narrowMode(file, PRIVATE_FILE_MODE);
    this.durable = fs.fstatSync(this.fd).size;
  }

  /** The journal's length once every append so far is written. */
  get size(): number {
    return this.durable + bytes(this.inflight) + bytes(this.queue);
  }

  /** A write is running. */
  get busy(): boolean {
    return this.inflight !== null;
  }

  /**
   * Queues `bufs` (none: just wait) and resolves when they and all before them are durable.
   * `before` runs (and must succeed) before the bytes are written.
   */
  append(bufs: Buffer[] = [], before: (() => Promise<void>) | null = null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const length = bufs.reduce((n, b) => n + b.length, 0);
      if (length || before) this.queue.push({ bufs, length, before, waiters: [] });
      const last = this.queue.at(-1) ?? this.inflight?.at(-1);
      if (!last) return resolve();
      last.waiters.push({ resolve, reject });
      this.pump();
    });
  }

  /** Resolves when no write is running (queued chunks that failed may remain). */
  idle(): Promise<void> {
    return this.inflight ? new Promise((r) => this.idleWaiters.push(r)) : Promise.resolve();
  }

  private pump(): void {
    if (this.inflight || !this.queue.length) return;
    const batch = (this.inflight = this.queue);
    this.queue = [];
    const data = batch.flatMap((c) => c.bufs);
    const length = bytes(batch);
    const pos = this.durable;
    const befores = batch.flatMap((c) => (c.before ? [c.before] : []));
    void Promise.all(befores.map((b) => b()))
      .then(() => this.writeAt(data, pos))
      .then(
      () => {
        this.durable = pos + length;
        this.settle();
        for (const c of batch) for (const w of c.waiters) w.resolve();
        this.pump();
      },
      (e) => {
        try {
          fs.ftruncateSync(this.fd, pos);
        } catch {
          // the next write starts at `pos` again and overwrites whatever is there
        }
        // Keep every unwritten byte, in order, for the next append; tell everyone waiting.
        const failed = [...batch, ...this.queue];
        this.queue = failed.map((c) => ({ bufs: c.bufs, length: c.length, before: c.before, waiters: [] }));
        this.settle();
        for (const c of failed) for (const w of c.waiters) w.reject(e);
      },
    );
  }

  private settle(): void {
    this.inflight = null;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async writeAt(data: Buffer[], pos: number): Promise<void> {
    checkWriteFault(this.file);
    let rest = data;
    while (rest.length) {
      const n = (await writev(this.fd, rest, pos)).bytesWritten;
      pos += n;
      rest = skip(rest, n);
    }
    await fdatasync(this.fd);
  }

  /** Cuts the file to `size` bytes (a torn tail at open). Only while nothing is queued or running. */
  truncate(size: number): void {
    fs.ftruncateSync(this.fd, size);
    fs.fdatasyncSync(this.fd);
    this.durable = size;
  }

  /**
   * Forgets the first `covered` bytes of the journal (a fold saved them into state.db). Call while
   * no write runs. Queued chunks inside them are dropped and their waiters resolved (they are
   * durable in state.db); bytes after them on disk are moved to the front by writing a temporary
   * file that replaces the journal, so a crash leaves either the old or the new journal.
   */
  dropBefore(covered: number): void {
    if (this.inflight) throw new Error('journal: dropBefore while a write runs');
    let pos = this.durable;
    while (this.queue.length && pos + this.queue[0].length <= covered) {
      const c = this.queue.shift()!;
      pos += c.length;
      for (const w of c.waiters) w.resolve();
    }
    if (covered >= this.durable) return this.truncate(0);
    const tail = Buffer.alloc(this.durable - covered);
    fs.readSync(this.fd, tail, 0, tail.length, covered);
    const tmp = `${this.file}.tmp`;
    try {
      checkWriteFault(this.file);
      const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
      try {
        fs.writeSync(fd, tail);
        fs.fdatasyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw e;
    }
    fs.closeSync(this.fd);
    try {
      fs.renameSync(tmp, this.file);
      this.durable = tail.length;
    } finally {
      this.fd = fs.openSync(this.file, fs.constants.O_RDWR);
    }
  }

  /** Closes the file; call after the last append settled. */
  close(): void {
    fs.closeSync(this.fd);
  }
}
