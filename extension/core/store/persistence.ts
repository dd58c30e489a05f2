/**
 * How state.db reaches the disk without blocking the extension host.
 *
 * Large message contents are files beside the database (content-files.ts), so the sql.js database
 * holds metadata and small messages only: its memory and its export() stay small as history grows.
 *
 * Every write is applied to the in-memory sql.js database at once and queued as one journal line,
 * already encoded to bytes (a message's bytes are shared with its row). commit() (the loop's
 * commitRound) hands the queued lines to the journal writer, which fdatasyncs the content files
 * they refer to, then appends and fdatasyncs the lines, all on libuv's thread pool; the promise
 * resolves once everything is durable. The event loop pays next to nothing at the round end,
 * whatever the size of the round or of the history.
 *
 * A fold saves the whole database: export() (synchronous, in memory), then a temporary file written
 * off the event loop and renamed over state.db, then the journal lines it covers are dropped. The
 * snapshot records the last sequence number it holds, so replaying the journal at open skips lines
 * it already has. export()'s cost grows with the database, so folds are rare: once the journal
 * reaches max(`foldJournalBytes`, a quarter of state.db), which keeps the cost per stored byte flat
 * and the replay at open short; and always on close. After `idleMs` without writes, trailing writes
 * (events, session changes) are committed.
 *
 * A fold the store starts by itself waits while a round's messages are uncommitted (it commits any
 * other queued writes first), so a snapshot never holds half a round: after a kill, the store holds
 * exactly the committed rounds.
 */
import type { Database } from 'sql.js';
import type { Logger } from '../log';
import type { ContentFiles } from './content-files';
import { saveError, writeFileAtomic } from './files';
import type { JournalWriter } from './journal-writer';
import { setMeta } from './schema';

const FOLD_RETRY_MS = 60_000;

export interface PersistenceInit {
  db: Database;
  file: string;
  journal: JournalWriter;
  log: Logger;
  idleMs: number;
  foldJournalBytes: number;
  /** The database holds changes that neither state.db nor the journal has (a migration). */
  dirty: boolean;
  /** Size of state.db on disk. */
  snapshotBytes: number;
  content: ContentFiles;
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
  private readonly content: ContentFiles;
  private queued: Buffer[] = [];
  private queuedMessages = 0;
  private dirty: boolean;
  private folding: Promise<void> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private idleDecisions = 0;
  private lastWrite = 0;
  private lastSeq: number;
  private closed = false;
  private snapshotBytes: number;
  /** After a failed fold, no automatic one before this time (Date.now()). */
  private retryAfter = 0;
  /** Why the last commit failed (its caller was told), or null. */
  private failedCode: string | null = null;

  constructor(init: PersistenceInit) {
    this.db = init.db;
    this.file = init.file;
    this.journal = init.journal;
    this.log = init.log;
    this.idleMs = init.idleMs;
    this.foldJournalBytes = init.foldJournalBytes;
    this.dirty = init.dirty;
    this.lastSeq = init.seq;
    this.snapshotBytes = init.snapshotBytes;
    this.content = init.content;
    if (this.foldDue()) this.touch();
  }

  /** Bytes in the journal not yet folded into state.db. */
  get journalBytes(): number {
    return this.journal.size;
  }

  /** Idle checks that found a quiet store and decided (commit, fold, or wait for the round): observable, so a test can wait for some to pass. */
  get idleChecks(): number {
    return this.idleDecisions;
  }

  get hasQueuedMessages(): boolean {
    return this.queuedMessages > 0;
  }

  /** Queues the journal line (as buffers) of write `seq`, already applied to the database. */
  queue(seq: number, line: Buffer[], isMessage: boolean): void {
    this.lastSeq = seq;
    this.queued.push(...line);
    if (isMessage) this.queuedMessages++;
    this.touch();
  }

  /**
   * Makes every write so far durable; resolves when it is (rejects when the disk refused it).
   * Synchronously it only hands the queued buffers over; writing and fdatasync run on the thread pool.
   */
  commit(): Promise<void> {
    const bufs = this.queued;
    this.queued = [];
    this.queuedMessages = 0;
    // Content files the lines refer to are made durable first, in the same background job.
    const done = this.journal.append(bufs, this.content.takeUnsynced()).then(
      () => {
        this.failedCode = null;
      },
      (e) => {
        const err = saveError(this.file, e) as NodeJS.ErrnoException;
        this.failedCode = err.code ?? err.message;
        throw err;
      },
    );
    if (this.foldDue()) setImmediate(() => this.autoFold());
    return done;
  }

  /** Commits, then folds the journal into state.db now (after a fold already running). */
  async flush(): Promise<void> {
    while (this.folding) await this.folding;
    // Handled at once: it may fail while the fold runs (the fold saves these writes anyway).
    const committed = this.commit().catch(() => {});
    await this.fold();
    await committed;
  }

  /** Stops the timers and saves everything into state.db. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      await this.flush();
      await this.journal.idle();
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

  /** The journal is big enough to be worth a fold, or the database has changes only memory holds. */
  private foldDue(): boolean {
    if (Date.now() < this.retryAfter) return false;
    return this.dirty || this.journal.size >= Math.max(this.foldJournalBytes, this.snapshotBytes / 4);
  }

  private onIdle(): void {
    this.idleTimer = null;
    const quiet = Date.now() - this.lastWrite;
    if (quiet < this.idleMs) return this.arm(this.idleMs - quiet);
    this.idleDecisions++;
    if (this.closed || this.queuedMessages > 0) return; // the round's commit comes
    if (this.foldDue()) return this.autoFold();
    if (this.queued.length) this.commit().catch((e) => this.log.error(`state.db: journal write failed: ${(e as Error).message}`));
  }

  /** A fold the store decides on: never while a round's messages are uncommitted. */
  private autoFold(): void {
    if (this.closed || this.folding || this.queuedMessages > 0) return;
    this.commit().catch((e) => this.log.error(`state.db: journal write failed: ${(e as Error).message}`));
    void this.fold();
  }

  /** Saves the database; the caller has committed, so it holds exactly the journal's writes up to lastSeq. */
  private fold(): Promise<void> {
    if (this.folding) return this.folding;
    if (this.journal.size === 0 && !this.dirty) return Promise.resolve();
    const covered = this.journal.size;
    setMeta(this.db, 'journal_seq', this.lastSeq);
    const bytes = this.db.export();
    const content = this.content.takeForFold();
    this.snapshotBytes = bytes.length;
    this.dirty = false;
    this.folding = (async () => {
      try {
        await content.sync();
        await writeFileAtomic(this.file, bytes);
        while (this.journal.busy) await this.journal.idle();
        this.journal.dropBefore(covered);
        this.folding = null;
      } catch (e) {
        content.putBack();
        this.folding = null;
        this.dirty = true;
        this.retryAfter = Date.now() + FOLD_RETRY_MS; // then retried when due, and on close
        const err = saveError(this.file, e) as NodeJS.ErrnoException;
        // Said once: when a commit already failed the same way, its caller has told the user.
        const said = this.failedCode !== null && this.failedCode === (err.code ?? err.message);
        this.log[said ? 'debug' : 'error'](`state.db: ${err.message} (earlier saved rounds are kept)`);
      }
    })();
    return this.folding;
  }
}
