/**
 * Loading state.db at open: read the snapshot (moving a damaged one aside), migrate it, then
 * replay the journal lines newer than the snapshot. Everything found wrong becomes a notice for
 * the user that says where the damaged file went; nothing is ever deleted.
 */
import * as fs from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import type { Logger } from '../log';
import { moveAside } from './files';
import { readJournal, type JournalRead } from './journal';
import { applyOp } from './ops';
import { notOurs, StateDbPathError } from './db-path';
import { APP_KEY, APP_MARK, hasSqliteHeader, isSnowpeaDb, sidecarsSayOurs, tableCount } from './ownership';
import { configure, getMeta, migrate, SCHEMA_VERSION, setMeta } from './schema';

export interface Recovered {
  db: Database;
  /** The last operation sequence number in the database (snapshot plus replayed journal). */
  seq: number;
  /** Bytes of the journal to keep (a torn tail is cut off); 0 when the journal was moved aside. */
  journalBytes: number;
  /** The database holds changes the snapshot on disk lacks and that no journal covers. */
  mustSnapshot: boolean;
  /** The database holds changes the snapshot lacks (replayed or migrated). */
  dirty: boolean;
}

interface Ctx {
  SQL: SqlJsStatic;
  file: string;
  journalFile: string;
  /** The folder of content files, moved aside with a damaged database (its rows point into it). */
  contentDir: string;
  log: Logger;
  notices: string[];
  now: () => number;
  /** Read a snapshot only: nothing is moved, written or locked (damage is an error). */
  readOnly: boolean;
}

function reason(e: unknown): string {
  return (e as Error)?.message ?? String(e);
}

function describeMove(ctx: Ctx, file: string, why: string): string | null {
  try {
    return moveAside(file, new Date(ctx.now()));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${file} is unusable (${why}) and could not be moved aside: ${reason(e)}`, { cause: e });
  }
}

/** Whether `file` is Snowpea's when it cannot be read as a database; refuses (touching nothing) when not. */
function mustBeOurs(ctx: Ctx, why: string): void {
  if (!sidecarsSayOurs(ctx.file)) throw notOurs(ctx.file, why);
}

/** A new, empty database with Snowpea's schema and mark. */
function freshDb(ctx: Ctx): Database {
  const db = new ctx.SQL.Database();
  configure(db);
  migrate(db);
  setMeta(db, APP_KEY, APP_MARK);
  return db;
}

/**
 * Opens the snapshot; a missing file gives a new database. Only a file Snowpea made is ever moved
 * aside (ownership.ts); anything else is refused with StateDbPathError and left untouched.
 */
function loadSnapshot(ctx: Ctx): { db: Database; fresh: boolean; migrated: boolean } {
  let bytes: Buffer | null = null;
  let failure: string | null = null;
  try {
    bytes = fs.readFileSync(ctx.file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { db: freshDb(ctx), fresh: true, migrated: false };
    failure = `unreadable: ${reason(e)}`;
    mustBeOurs(ctx, failure);
  }
  if (bytes && bytes.length === 0) {
    mustBeOurs(ctx, 'it is empty');
    ctx.notices.push(`${ctx.file} was empty (0 bytes), so the sessions saved in it are gone; a new database was started there${ctx.readOnly ? '' : ' (changes still in its journal were restored)'}.`);
    return { db: freshDb(ctx), fresh: true, migrated: false };
  }
  if (bytes) {
    let db: Database | null = null;
    try {
      if (!hasSqliteHeader(bytes)) throw new Error('file is not a database');
      db = new ctx.SQL.Database(bytes);
      configure(db);
      if (!isSnowpeaDb(db)) {
        const why = tableCount(db) ? 'an SQLite database of another program' : 'an SQLite database Snowpea did not make';
        db.close();
        db = null;
        throw notOurs(ctx.file, why);
      }
      const check = db.exec('PRAGMA quick_check');
      const verdict = String(check[0]?.values[0]?.[0] ?? 'no answer');
      if (verdict !== 'ok') throw new Error(`integrity check: ${verdict}`);
      const from = migrate(db);
      if (from > SCHEMA_VERSION) {
        ctx.notices.push(`${ctx.file} was written by a newer Snowpea (schema v${from}, this one knows v${SCHEMA_VERSION}); using it as is.`);
      }
      const marked = getMeta(db, APP_KEY) === APP_MARK;
      if (!marked) setMeta(db, APP_KEY, APP_MARK);
      return { db, fresh: false, migrated: from < SCHEMA_VERSION || !marked };
    } catch (e) {
      db?.close();
      if (e instanceof StateDbPathError) throw e;
      failure = `not a valid database: ${reason(e)}`;
      mustBeOurs(ctx, failure);
    }
  }
  if (ctx.readOnly) throw new Error(`could not read the session database ${ctx.file} (${failure}); a command that writes (such as snowpea run) moves it aside and starts a new one.`);
  ctx.log.error(`state.db: ${ctx.file} ${failure}`);
  const movedDb = describeMove(ctx, ctx.file, failure!);
  const movedJournal = describeMove(ctx, ctx.journalFile, 'its database was damaged');
  const movedContent = describeMove(ctx, ctx.contentDir, 'its database was damaged');
  const kept = [movedDb, movedJournal, movedContent].filter(Boolean).join(' and ');
  ctx.notices.push(`Snowpea could not read its session database (${failure}). It was moved to ${kept} and a new one was started.`);
  return { db: freshDb(ctx), fresh: true, migrated: false };
}

function loadJournal(ctx: Ctx): { read: JournalRead; movedAside: boolean } {
  const empty: JournalRead = { ops: [], validBytes: 0, torn: false };
  let read: JournalRead;
  try {
    read = readJournal(ctx.journalFile);
  } catch (e) {
    const moved = describeMove(ctx, ctx.journalFile, reason(e));
    ctx.notices.push(`Snowpea could not read its session journal (${reason(e)}); it was moved to ${moved}. Changes since the last save may be missing.`);
    return { read: empty, movedAside: true };
  }
  if (read.corrupt) {
    const moved = describeMove(ctx, ctx.journalFile, read.corrupt);
    ctx.notices.push(`Snowpea's session journal was damaged (${read.corrupt}); it was moved to ${moved}. Changes recorded after that point were not restored.`);
    return { read, movedAside: true };
  }
  if (read.torn) ctx.log.info(`state.db: dropped an unfinished last journal line (a write cut short)`);
  return { read, movedAside: false };
}

/**
 * For a read-only open, read before the snapshot: a writer folding meanwhile only drops journal
 * lines after its new snapshot is in place, so this journal and any later snapshot fit together.
 */
function peekJournal(ctx: Ctx): { read: JournalRead; movedAside: boolean } {
  try {
    const read = readJournal(ctx.journalFile);
    if (read.corrupt) ctx.notices.push(`Snowpea's session journal is damaged (${read.corrupt}); changes recorded after that point are not shown.`);
    return { read, movedAside: false };
  } catch (e) {
    ctx.notices.push(`Snowpea could not read its session journal (${reason(e)}); changes since the last save are not shown.`);
    return { read: { ops: [], validBytes: 0, torn: false }, movedAside: false };
  }
}

export function recover(ctx: Ctx): Recovered {
  const early = ctx.readOnly ? peekJournal(ctx) : null;
  const { db, fresh, migrated } = loadSnapshot(ctx);
  const snapSeq = Number(getMeta(db, 'journal_seq') ?? 0);
  let seq = snapSeq;
  let replayed = 0;
  const { read, movedAside } = early ?? loadJournal(ctx);
  for (const op of read.ops) {
    if (op.q <= snapSeq) continue;
    try {
      applyOp(db, op.o, op.a);
      replayed++;
    } catch (e) {
      ctx.log.warn(`state.db: journal operation ${op.q} (${op.o}) could not be replayed: ${reason(e)}`);
    }
    seq = op.q;
  }
  if (replayed) ctx.log.info(`state.db: replayed ${replayed} journal operation(s) after snapshot ${snapSeq}`);
  return {
    db,
    seq,
    journalBytes: movedAside ? 0 : read.validBytes,
    mustSnapshot: fresh || movedAside,
    dirty: migrated || replayed > 0,
  };
}
