/**
 * state.db's schema as an ordered table of migrations. migrations[i] takes a database at
 * version i to version i+1; a shipped migration never changes, a new shape is a new entry.
 * The version lives in meta('schema_version'); a database without meta is version 0 (empty).
 */
import type { Database } from 'sql.js';

export type Migration = (db: Database) => void;

export const migrations: Migration[] = [
  // v1: sessions, their verbatim messages, tool calls, events, token usage.
  (db) =>
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY, parent_id TEXT, title TEXT NOT NULL, workspace_root TEXT NOT NULL,
        mode TEXT NOT NULL, role TEXT NOT NULL, loaded_tools TEXT NOT NULL DEFAULT '[]',
        created INTEGER NOT NULL, updated INTEGER NOT NULL);
      CREATE TABLE messages (
        session_id TEXT NOT NULL, seq INTEGER NOT NULL, turn INTEGER NOT NULL, round INTEGER NOT NULL,
        role TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (session_id, seq));
      CREATE TABLE tool_calls (
        session_id TEXT NOT NULL, call_id TEXT NOT NULL, tool TEXT NOT NULL, args TEXT NOT NULL,
        ok INTEGER, error_code TEXT, started INTEGER NOT NULL, ended INTEGER, PRIMARY KEY (session_id, call_id));
      CREATE TABLE events (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, at INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL);
      CREATE TABLE usage (
        id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, round INTEGER NOT NULL,
        prompt INTEGER NOT NULL, completion INTEGER NOT NULL, cached INTEGER NOT NULL, at INTEGER NOT NULL);
      CREATE INDEX events_session ON events(session_id);
      CREATE INDEX usage_session ON usage(session_id);
    `),
  // v2: tool calls know their turn and round; round counts and child lookups use indexes.
  (db) =>
    db.exec(`
      ALTER TABLE tool_calls ADD COLUMN turn INTEGER;
      ALTER TABLE tool_calls ADD COLUMN round INTEGER;
      CREATE INDEX messages_rounds ON messages(session_id, role, turn, round);
      CREATE INDEX sessions_parent ON sessions(parent_id, updated);
    `),
  // v3: large contents live in files beside the database (content-files.ts); the row keeps a reference.
  (db) =>
    db.exec(`
      ALTER TABLE messages ADD COLUMN content_ref TEXT;
      ALTER TABLE messages ADD COLUMN content_bytes INTEGER;
      CREATE INDEX messages_content_ref ON messages(content_ref) WHERE content_ref IS NOT NULL;
    `),
  // v4: the model's todo list (todo_write) is kept with its session, as JSON.
  (db) => db.exec(`ALTER TABLE sessions ADD COLUMN todos TEXT NOT NULL DEFAULT '[]';`),
  // v5: the model (and reasoning effort) the user picked for a session in the chat's composer, as JSON.
  (db) => db.exec(`ALTER TABLE sessions ADD COLUMN model_choice TEXT NOT NULL DEFAULT '{}';`),
];

export const SCHEMA_VERSION = migrations.length;

/**
 * Connection settings for sql.js's in-memory file: a rollback journal in SQLite's heap instead of a
 * second emulated file (several times faster for large rows; rollback still works), and exclusive
 * locking: this connection is the file's only user, so SQLite need not look for a hot journal and
 * re-read the header at the start of every statement's transaction (a path lookup and reads in
 * the emulated file system, the larger part of a small write's cost). Not stored in the file, so
 * applied at every open.
 */
export function configure(db: Database): void {
  db.exec('PRAGMA journal_mode = MEMORY; PRAGMA temp_store = MEMORY; PRAGMA locking_mode = EXCLUSIVE;');
}

function hasMeta(db: Database): boolean {
  return db.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).length > 0;
}

export function getMeta(db: Database, key: string): string | null {
  const r = db.exec('SELECT value FROM meta WHERE key = ?', [key]);
  return r.length ? String(r[0].values[0][0]) : null;
}

export function setMeta(db: Database, key: string, value: string | number): void {
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, String(value)]);
}

export function schemaVersion(db: Database): number {
  if (!hasMeta(db)) return 0;
  return Number(getMeta(db, 'schema_version') ?? 0);
}

/**
 * Brings `db` up to `to` (default: the newest version), each step in its own transaction.
 * Returns the version found before migrating. A newer database than this code knows is left as is.
 */
export function migrate(db: Database, to = SCHEMA_VERSION): number {
  const from = schemaVersion(db);
  for (let v = from; v < to; v++) {
    db.exec('BEGIN');
    try {
      migrations[v](db);
      setMeta(db, 'schema_version', v + 1);
      db.exec('COMMIT');
    } catch (e) {
      db.exec('ROLLBACK');
      throw new Error(`state.db migration to schema v${v + 1} failed: ${(e as Error).message}`, { cause: e });
    }
  }
  return from;
}
