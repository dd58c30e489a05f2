/**
 * Whether a file is Snowpea's own session database, so recovery may move it aside. A readable
 * SQLite file is Snowpea's when its `meta` table carries Snowpea's mark (or, for databases made
 * before the mark existed, Snowpea's schema: a schema version and the sessions and messages
 * tables with their columns). A file that cannot be read as a database (empty, torn, damaged) is
 * Snowpea's only when its sidecars say so: the journal Snowpea creates beside every database it
 * opens, or its content folder.
 */
import * as fs from 'node:fs';
import type { Database } from 'sql.js';

export const APP_KEY = 'app';
export const APP_MARK = 'snowpea';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export function hasSqliteHeader(bytes: Uint8Array): boolean {
  return bytes.length >= SQLITE_HEADER.length && SQLITE_HEADER.equals(Buffer.from(bytes.buffer, bytes.byteOffset, SQLITE_HEADER.length));
}

function columns(db: Database, table: string): Set<string> {
  const r = db.exec(`SELECT name FROM pragma_table_info('${table}')`);
  return new Set(r.length ? r[0].values.map((v) => String(v[0])) : []);
}

function metaValue(db: Database, key: string): string | null {
  if (!columns(db, 'meta').has('value')) return null;
  const r = db.exec('SELECT value FROM meta WHERE key = ?', [key]);
  return r.length ? String(r[0].values[0][0]) : null;
}

/** Tables in the database (none in a new, empty one). */
export function tableCount(db: Database): number {
  return Number(db.exec(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'`)[0].values[0][0]);
}

/** The database is Snowpea's (throws when it cannot be read). */
export function isSnowpeaDb(db: Database): boolean {
  if (metaValue(db, APP_KEY) === APP_MARK) return true;
  if (metaValue(db, 'schema_version') === null) return false;
  const sessions = columns(db, 'sessions');
  const messages = columns(db, 'messages');
  return ['id', 'parent_id', 'workspace_root', 'loaded_tools'].every((c) => sessions.has(c)) && ['session_id', 'seq', 'turn', 'round', 'role', 'body'].every((c) => messages.has(c));
}

/** Snowpea's journal or content folder sits beside `file`: Snowpea opened a database there. */
export function sidecarsSayOurs(file: string): boolean {
  try {
    if (fs.statSync(`${file}.content`).isDirectory()) return true;
  } catch {
    // none
  }
  let fd: number | undefined;
  try {
    fd = fs.openSync(`${file}.journal`, 'r');
    if (!fs.fstatSync(fd).isFile()) return false;
    const head = Buffer.alloc(5);
    const n = fs.readSync(fd, head, 0, 5, 0);
    return n === 0 || head.subarray(0, n).toString('latin1') === '{"q":'.slice(0, n);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
