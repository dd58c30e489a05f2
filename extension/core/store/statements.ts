/**
 * Prepared statements kept per database and SQL text. sql.js's db.run(sql, params) compiles the
 * SQL on every call, which costs more than most of the writes a round makes; the store's SQL is a
 * small fixed set, so each text is prepared once and reused (bound afresh, reset after use).
 * sql.js (1.17) keeps prepared statements across export() and frees them on close().
 */
import type { Database, SqlValue, Statement } from 'sql.js';

export type Row = Record<string, SqlValue>;

const caches = new WeakMap<Database, Map<string, Statement>>();

/** The prepared statement for `sql` on `db` (prepared on first use). */
export function statement(db: Database, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

/** Runs a statement that returns no rows. */
export function runCached(db: Database, sql: string, params: (SqlValue | Uint8Array)[]): void {
  const stmt = statement(db, sql);
  try {
    stmt.bind(params as SqlValue[]);
    stmt.step();
  } finally {
    stmt.reset();
  }
}

/** Every row of a query, as objects keyed by column name. */
export function rowsCached(db: Database, sql: string, params: SqlValue[] = []): Row[] {
  const stmt = statement(db, sql);
  try {
    stmt.bind(params);
    const out: Row[] = [];
    while (stmt.step()) out.push(stmt.getAsObject());
    return out;
  } finally {
    stmt.reset();
  }
}
