/**
 * Every write to state.db is one of these operations. The live store applies an operation to
 * the in-memory database and journals it; opening replays journaled operations through the very
 * same functions. Arguments are fully resolved (ids, times, sequence numbers), so replaying is
 * deterministic. An operation never reads the clock or generates ids.
 */
import type { Database } from 'sql.js';
import type { Message } from '../conversation/messages';
import type { ContentRef } from './content-files';
import { runCached } from './statements';
import type { SessionPatch, SessionRecord, ToolCallRecord } from './types';

export interface OpArgs {
  'session.create': SessionRecord;
  'session.update': { id: string; patch: SessionPatch; updated: number };
  'session.delete': { id: string };
  /** With `ref`, the message's content is in a content file and `message.content` is null. */
  'message.append': { sessionId: string; seq: number; turn: number; round: number; message: Message; at: number; ref?: ContentRef | null };
  'toolcall.record': ToolCallRecord & { sessionId: string };
  'usage.record': { sessionId: string; round: number; prompt: number; completion: number; cached: number; at: number };
  'event.record': { sessionId: string; type: string; at: number; event: unknown };
}

export type OpName = keyof OpArgs;

/** A journaled operation: `q` is its sequence number, `o` the operation, `a` its arguments. */
export interface JournalOp<N extends OpName = OpName> {
  q: number;
  o: N;
  a: OpArgs[N];
}

/**
 * Text for a bound parameter. sql.js encodes bound strings to UTF-8 in JavaScript, slowly for large
 * ones; large text goes in as native UTF-8 bytes instead and the SQL casts it back to TEXT (the bytes
 * are the same: the database encoding is UTF-8).
 */
export function utf8(text: string): string | Uint8Array {
  return text.length > 1024 ? Buffer.from(text, 'utf8') : text;
}

type MessageMeta = Omit<OpArgs['message.append'], 'message'>;

/** Inserts a message whose JSON is already encoded as UTF-8 (shared with its journal line). */
export function insertMessage(db: Database, a: MessageMeta, role: string, body: Uint8Array): void {
  runCached(
    db,
    `INSERT INTO messages (session_id, seq, turn, round, role, body, content_ref, content_bytes)
     VALUES (?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?)`,
    [a.sessionId, a.seq, a.turn, a.round, role, body, a.ref?.sha256 ?? null, a.ref?.bytes ?? null],
  );
  runCached(db, 'UPDATE sessions SET updated = ? WHERE id = ?', [a.at, a.sessionId]);
}

/** The journal line of a message.append as buffers, around the already encoded body (the bytes journalLine() would give). */
export function messageLine(q: number, a: MessageMeta, body: Buffer): Buffer[] {
  const { sessionId, seq, turn, round, at, ref } = a;
  const head = JSON.stringify({ q, o: 'message.append', a: { sessionId, seq, turn, round, at, ref } }).slice(0, -2);
  return [Buffer.from(`${head},"message":`, 'utf8'), body, Buffer.from('}}\n', 'utf8')];
}

type EventMeta = Omit<OpArgs['event.record'], 'event'>;

/** Inserts an event whose JSON is already encoded as UTF-8 (shared with its journal line). */
export function insertEvent(db: Database, a: EventMeta, data: Uint8Array): void {
  runCached(db, 'INSERT INTO events (session_id, at, type, data) VALUES (?, ?, ?, CAST(? AS TEXT))', [a.sessionId, a.at, a.type, data]);
}

/** The journal line of an event.record as buffers, around the already encoded event (the bytes journalLine() would give). */
export function eventLine(q: number, a: EventMeta, data: Buffer): Buffer[] {
  const { sessionId, type, at } = a;
  const head = JSON.stringify({ q, o: 'event.record', a: { sessionId, type, at } }).slice(0, -2);
  return [Buffer.from(`${head},"event":`, 'utf8'), data, Buffer.from('}}\n', 'utf8')];
}

/** The ids of a session and all its descendants (delegated children, their children, ...). */
export function sessionTree(db: Database, id: string): string[] {
  const r = db.exec(
    `WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id)
     SELECT id FROM tree`,
    [id],
  );
  return r.length ? r[0].values.map((v) => String(v[0])) : [];
}

const handlers: { [N in OpName]: (db: Database, a: OpArgs[N]) => void } = {
  'session.create': (db, a) =>
    runCached(
      db,
      `INSERT INTO sessions (id, parent_id, title, workspace_root, mode, role, loaded_tools, todos, model_choice, created, updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      // A journaled create from before todo lists (or model choices) has none.
      [a.id, a.parentId, a.title, a.workspaceRoot, a.mode, a.role, JSON.stringify(a.loadedTools), JSON.stringify(a.todos ?? []), JSON.stringify(a.modelChoice ?? {}), a.created, a.updated],
    ),
  'session.update': (db, { id, patch, updated }) => {
    const sets: string[] = ['updated = ?'];
    const params: (string | number)[] = [updated];
    const set = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      sets.push(`${column} = ?`);
      params.push(value);
    };
    set('title', patch.title);
    set('mode', patch.mode);
    set('role', patch.role);
    set('loaded_tools', patch.loadedTools && JSON.stringify(patch.loadedTools));
    set('todos', patch.todos && JSON.stringify(patch.todos));
    set('model_choice', patch.modelChoice && JSON.stringify(patch.modelChoice));
    runCached(db, `UPDATE sessions SET ${sets.join(', ')} WHERE id = ?`, [...params, id]);
  },
  'session.delete': (db, { id }) => {
    for (const sid of sessionTree(db, id)) {
      for (const table of ['messages', 'tool_calls', 'events', 'usage']) runCached(db, `DELETE FROM ${table} WHERE session_id = ?`, [sid]);
      runCached(db, 'DELETE FROM sessions WHERE id = ?', [sid]);
    }
  },
  'message.append': (db, a) => insertMessage(db, a, a.message.role, Buffer.from(JSON.stringify(a.message), 'utf8')),
  'toolcall.record': (db, a) =>
    runCached(
      db,
      `INSERT OR REPLACE INTO tool_calls (session_id, call_id, tool, args, ok, error_code, turn, round, started, ended)
       VALUES (?, ?, ?, CAST(? AS TEXT), ?, ?, ?, ?, ?, ?)`,
      [a.sessionId, a.callId, a.tool, utf8(a.args), a.ok === null ? null : a.ok ? 1 : 0, a.errorCode ?? null, a.turn ?? null, a.round ?? null, a.started, a.ended ?? null],
    ),
  'usage.record': (db, a) =>
    runCached(db, 'INSERT INTO usage (session_id, round, prompt, completion, cached, at) VALUES (?, ?, ?, ?, ?, ?)', [
      a.sessionId,
      a.round,
      a.prompt,
      a.completion,
      a.cached,
      a.at,
    ]),
  'event.record': (db, a) => insertEvent(db, a, Buffer.from(JSON.stringify(a.event), 'utf8')),
};

export function isOpName(o: unknown): o is OpName {
  return typeof o === 'string' && Object.prototype.hasOwnProperty.call(handlers, o);
}

/** Applies one operation to the database. */
export function applyOp<N extends OpName>(db: Database, name: N, args: OpArgs[N]): void {
  (handlers[name] as (db: Database, a: OpArgs[N]) => void)(db, args);
}
