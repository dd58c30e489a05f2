/** The read side of state.db: plain queries over the in-memory database. */
import type { Database, SqlValue } from 'sql.js';
import { z } from 'zod';
import { sessionModes, todoListSchema, type Mode, type TodoItem } from '../conversation/events';
import { modelChoiceSchema, type ModelChoice } from '../model/model-choice';
import { rowsCached as rows, type Row } from './statements';
import type { ContentRef } from './content-files';
import { argumentRefs, ARGUMENTS_REF_KEY, restoreArguments, type ContentReader } from './stored-message';
import type { EventRecord, SessionRecord, SessionSummary, StoredMessage, ToolCallRecord, UsageRecord } from './types';

const num = (v: SqlValue): number => Number(v);

/**
 * Reads text selected as `CAST(col AS BLOB)`: decoded natively from its exact bytes (sql.js's own
 * text getter decodes in JavaScript and stops at a NUL character).
 */
const text = (v: SqlValue): string => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8') : String(v ?? ''));
const numOrNull = (v: SqlValue): number | null => (v === null ? null : Number(v));

function toSession(r: Row): SessionRecord {
  return {
    id: String(r.id),
    parentId: r.parent_id === null ? null : String(r.parent_id),
    title: String(r.title),
    workspaceRoot: String(r.workspace_root),
    mode: storedMode(r.mode),
    role: String(r.role),
    loadedTools: JSON.parse(String(r.loaded_tools)) as string[],
    todos: storedTodos(r.todos),
    modelChoice: storedChoice(r.model_choice),
    created: num(r.created),
    updated: num(r.updated),
  };
}

const storedModeSchema = z.enum(sessionModes);

/**
 * A stored mode; one this version does not know (a newer Snowpea's, or a damaged row) reads as
 * `code`, the mode a new session starts in (as before, when an unknown mode counted as no read-only mode).
 */
function storedMode(v: SqlValue | undefined): Mode {
  const parsed = storedModeSchema.safeParse(v);
  return parsed.success ? parsed.data : 'code';
}

/** A stored todo list; a damaged one (or none, before schema v4) reads as empty rather than failing the session. */
function storedTodos(v: SqlValue | undefined): TodoItem[] {
  try {
    const parsed = todoListSchema.safeParse(JSON.parse(String(v ?? '[]')));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** A stored model choice; a damaged one (or none, before schema v5) reads as none: the settings' model. */
function storedChoice(v: SqlValue | undefined): ModelChoice {
  try {
    const parsed = modelChoiceSchema.safeParse(JSON.parse(String(v ?? '{}')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function sessionExists(db: Database, id: string): boolean {
  return rows(db, 'SELECT 1 FROM sessions WHERE id = ?', [id]).length > 0;
}

export function getSession(db: Database, id: string): SessionRecord | null {
  const r = rows(db, 'SELECT * FROM sessions WHERE id = ?', [id]);
  return r.length ? toSession(r[0]) : null;
}

export function childSessions(db: Database, parentId: string): SessionRecord[] {
  return rows(db, 'SELECT * FROM sessions WHERE parent_id = ? ORDER BY created, rowid', [parentId]).map(toSession);
}

/** Sessions, most recently active first; top-level only unless `includeChildren`. */
export function listSessions(db: Database, includeChildren: boolean): SessionSummary[] {
  const where = includeChildren ? '' : 'WHERE s.parent_id IS NULL';
  return rows(
    db,
    `SELECT s.id, s.title, s.created, s.updated,
       (SELECT COUNT(*) FROM (SELECT DISTINCT m.turn, m.round FROM messages m
          WHERE m.session_id = s.id AND m.role = 'assistant')) AS rounds
     FROM sessions s ${where}
     ORDER BY s.updated DESC, s.created DESC, s.rowid DESC`,
  ).map((r) => ({ id: String(r.id), title: String(r.title), created: num(r.created), updated: num(r.updated), rounds: num(r.rounds) }));
}

export function nextMessageSeq(db: Database, sessionId: string): number {
  return num(rows(db, 'SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM messages WHERE session_id = ?', [sessionId])[0].next);
}

/** Gives the content a row keeps in a content file. */
export type { ContentReader };

export function getStoredMessages(db: Database, sessionId: string, readContent: ContentReader, readable?: (ref: ContentRef) => boolean): StoredMessage[] {
  const sql = `SELECT seq, turn, round, CAST(body AS BLOB) AS body, content_ref, content_bytes
               FROM messages WHERE session_id = ? ORDER BY seq`;
  return rows(db, sql, [sessionId]).map((r) => {
    const message = JSON.parse(text(r.body));
    // The stored JSON has `content: null` in its place, so the key order stays the original one.
    if (r.content_ref !== null) message.content = readContent({ sha256: String(r.content_ref), bytes: num(r.content_bytes) });
    restoreArguments(message, readContent, readable);
    return { seq: num(r.seq), turn: num(r.turn), round: num(r.round), message };
  });
}

/** Every content file a row refers to: contents, and tool-call arguments. */
export function contentRefs(db: Database): Set<string> {
  const refs = new Set(rows(db, 'SELECT DISTINCT content_ref FROM messages WHERE content_ref IS NOT NULL').map((r) => String(r.content_ref)));
  const withArgs = rows(db, `SELECT CAST(body AS BLOB) AS body FROM messages WHERE role = 'assistant' AND instr(body, ?) > 0`, [`"${ARGUMENTS_REF_KEY}"`]);
  for (const r of withArgs) for (const sha of argumentRefs(text(r.body))) refs.add(sha);
  return refs;
}

export function getToolCalls(db: Database, sessionId: string): ToolCallRecord[] {
  return rows(db, 'SELECT *, CAST(args AS BLOB) AS args FROM tool_calls WHERE session_id = ? ORDER BY started, rowid', [sessionId]).map((r) => ({
    callId: String(r.call_id),
    tool: String(r.tool),
    args: text(r.args),
    ok: r.ok === null ? null : num(r.ok) === 1,
    errorCode: r.error_code === null ? null : String(r.error_code),
    turn: numOrNull(r.turn),
    round: numOrNull(r.round),
    started: num(r.started),
    ended: numOrNull(r.ended),
  }));
}

export function getUsage(db: Database, sessionId: string): UsageRecord[] {
  return rows(db, 'SELECT round, prompt, completion, cached, at FROM usage WHERE session_id = ? ORDER BY id', [sessionId]).map((r) => ({
    round: num(r.round),
    prompt: num(r.prompt),
    completion: num(r.completion),
    cached: num(r.cached),
    at: num(r.at),
  }));
}

export function getEvents(db: Database, sessionId: string): EventRecord[] {
  return rows(db, 'SELECT at, type, CAST(data AS BLOB) AS data FROM events WHERE session_id = ? ORDER BY id', [sessionId]).map((r) => ({
    type: String(r.type),
    at: num(r.at),
    event: JSON.parse(text(r.data)),
  }));
}
