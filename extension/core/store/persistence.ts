/**
 * How state.db reaches the disk without blocking the extension host.
 *
 * Every write is applied to the in-memory sql.js database at once and queued as one journal line.
 * commit() (the loop's commitRound) appends the queued lines to state.db.journal and fdatasyncs:
 * its cost is the size of the round, not of the history. A fold writes the whole database
 * (export(), then a temporary file renamed over state.db, the write off the event loop) with the
 * sequence number it covers, then drops the journal lines it covered. Folds run when the store has
 * been idle for `idleMs`, when the journal passes `foldJournalBytes`, and on close.
 *
 * A fold only runs when no message of an uncommitted round is queued (it commits other queued
 * writes first), so a snapshot never holds half a round: after a kill, the store holds exactly the
 * committed rounds. Session changes made outside a round are committed at once.
 */
import type { Database } from 'sql.js';
import type { Logger } from '../log';
import { writeFileAtomic } from './files';
import type { JournalWriter } from './journal';
import { setMeta } from './schema';

export interface PersistenceInit {
  db: Database;
  file: string;
  journal: JournalWriter;
  log: Logger;
  idleMs: number;
  foldJournalBytes: number;
  dirty: boolean;
  /** Sequence number of the last write already in the database. */
  seq: number;
}

export class Persistence {
  private readonly db: Database;
  private readonly file: string;
  private readonly journal: JournalWriter;
  private readonly log: Logger;
  private readonly idleMs: number;
  private readonly foldJournalBytes: number;
  private queued: string[] = [];
  private queuedMessages = 0;
  /** The database holds changes state.db lacks that the journal does not cover. */
  private dirty: boolean;
  private folding: Promise<void> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private lastWrite = 0;
  private lastSeq: number;
  private closed = false;

  constructor(init: PersistenceInit) {
    this.db = init.db;
    this.file = init.file;
    this.journal = init.journal;
    this.log = init.log;
    this.idleMs = init.idleMs;
    this.foldJournalBytes = init.foldJournalBytes;
    this.dirty = init.dirty;
    this.lastSeq = init.seq;
    if (this.dirty) this.touch();
  }

  /** Bytes in the journal not yet folded into state.db. */
  get journalBytes(): number {
    return this.journal.size;
  }

  get hasQueuedMessages(): boolean {
    return this.queuedMessages > 0;
  }

  /** Queues the journal line of write `seq`, already applied to the database. */
  queue(seq: number, line: string, isMessage: boolean): void {
    this.lastSeq = seq;
    this.queued.push(line);
    if (isMessage) this.queuedMessages++;
    this.touch();
  }

  /** Makes every queued write durable: one append and one fdatasync. */
  commit(): void {
    if (!this.queued.length) return;
    this.journal.commit(this.queued.join(''));
    this.queued = [];
    this.queuedMessages = 0;
    if (this.journal.size >= this.foldJournalBytes) setImmediate(() => this.autoFold());
  }

  /** Commits, then folds the journal into state.db now (waiting for a fold already running). */
  async flush(): Promise<void> {
    while (this.folding) await this.folding;
    this.commit();
    await this.fold();
  }

  /** Stops the timers and leaves everything in state.db; the journal is empty afterwards unless writing failed. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      await this.flush();
    } finally {
      this.journal.close();
    }
  }

  private touch(): void {
    this.lastWrite = Date.now();
    if (this.idleMs > 0 && !this.idleTimer && !this.closed) this.arm(this.idleMs);
  }

  private arm(ms: number): void {
    this.idleTimer = setTimeout(() => this.onIdle(), ms);
    this.idleTimer.unref();
  }

  private onIdle(): void {
    this.idleTimer = null;
    const quiet = Date.now() - this.lastWrite;
    if (quiet < this.idleMs) return this.arm(this.idleMs - quiet);
    this.autoFold();
  }

  /** A fold the store decides on: never while a round's messages are uncommitted. */
  private autoFold(): void {
    if (this.closed || this.folding || this.queuedMessages > 0) return;
    try {
      this.commit();
    } catch (e) {
      this.log.error(`state.db: journal commit failed: ${(e as Error).message}`);
      return;
    }
    void this.fold();
  }

  private fold(): Promise<void> {
    if (this.folding) return this.folding;
    // Callers commit first, so the database holds exactly the journal's writes up to lastSeq.
    if (this.journal.size === 0 && !this.dirty) return Promise.resolve();
    const covered = this.journal.size;
    setMeta(this.db, 'journal_seq', this.lastSeq);
    const bytes = this.db.export();
    this.dirty = false;
    this.folding = (async () => {
      try {
        await writeFileAtomic(this.file, bytes);
        this.journal.dropBefore(covered);
        this.folding = null;
        // Lines committed while this fold was writing wait for the next quiet moment.
        if (this.journal.size > 0) this.touch();
      } catch (e) {
        this.folding = null;
        this.dirty = true; // retried at the next quiet moment after a write
        this.log.error(`state.db: saving ${this.file} failed (the journal keeps every change): ${(e as Error).message}`);
      }
    })();
    return this.folding;
  }
}
