/**
 * StateDb: sessions, their verbatim transcripts, tool calls, usage and events in state.db
 * (sql.js, WebAssembly SQLite, no native module). Reads and writes are synchronous against the
 * in-memory database; durability comes from the journal (see persistence.ts): commitRound()
 * makes everything so far durable, close() leaves it all in state.db (and large contents in
 * state.db.content/, see content-files.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'sql.js';
import type { AgentEvent } from '../conversation/events';
import type { Message } from '../conversation/messages';
import type { Logger } from '../log';
import type { Usage } from '../model/types';
import type { ContentFiles, ContentRef } from './content-files';
import { exportJson, exportMarkdown } from './export';
import { journalLine } from './journal';
import { applyOp, eventLine, insertEvent, insertMessage, messageLine, type OpArgs, type OpName } from './ops';
import type { Persistence } from './persistence';
import * as q from './queries';
import { releaseArguments, toStored } from './stored-message';
import type { NewSession, SessionPatch, SessionRecord, SessionSummary, StoredMessage, ToolCallRecord } from './types';

/** Streaming events whose content the transcript already holds; recording them would only bloat state.db. */
const UNRECORDED_EVENTS = new Set<string>(['text.delta', 'tool.output']);

export interface StateDbParts {
  file: string;
  db: Database;
  /** null: opened read-only (writes throw). */
  persistence: Persistence | null;
  seq: number;
  notices: string[];
  now: () => number;
  release: () => void;
  log: Logger;
  content: ContentFiles;
}

export class StateDb {
  readonly file: string;
  /** Messages for the user about recoveries at open (a damaged file moved aside, and where to). */
  readonly notices: readonly string[];
  private readonly db: Database;
  private readonly persistence: Persistence | null;
  private readonly now: () => number;
  private readonly release: () => void;
  private readonly log: Logger;
  private readonly content: ContentFiles;
  private seq: number;
  private closing: Promise<void> | null = null;
  /**
   * What the writes need to know about sessions, kept here instead of asked of the database at
   * every write: ids known to exist, and each session's next message position. Only this class
   * writes the database once it is open, so they change only here; a delete forgets them all.
   */
  private readonly known = new Set<string>();
  private readonly nextSeq = new Map<string, number>();

  constructor(parts: StateDbParts) {
    this.file = parts.file;
    this.db = parts.db;
    this.persistence = parts.persistence;
    this.seq = parts.seq;
    this.notices = parts.notices;
    this.now = parts.now;
    this.release = parts.release;
    this.log = parts.log;
    this.content = parts.content;
  }

  /** Reads a content file; a missing or damaged one becomes a marker (the rest of the session stays usable). */
  private readonly readContent = (ref: ContentRef): string => {
    const text = this.content.read(ref);
    if (text !== null) return text;
    this.log.error(`state.db: content file ${this.content.where(ref)} is missing or damaged`);
    return `[state.db: this content (${ref.bytes} bytes) is missing: ${this.content.where(ref)}]`;
  };

  private readonly holdsContent = (ref: ContentRef): boolean => this.content.holds(ref);

  /** The notices as one text for the host or CLI to show, or null when all was well. */
  get notice(): string | null {
    return this.notices.length ? this.notices.join('\n') : null;
  }

  /** Bytes committed to the journal and not yet folded into state.db. */
  get journalBytes(): number {
    return this.persistence?.journalBytes ?? 0;
  }

  /** How many times the idle timer found the store quiet and decided what to write (see Persistence.idleChecks). */
  get idleChecks(): number {
    return this.persistence?.idleChecks ?? 0;
  }

  /** Opened with `readOnly`: reads work, writes throw. */
  get readOnly(): boolean {
    return this.persistence === null;
  }

  /** Checks that writes are allowed; returns where they go. */
  private open(): Persistence {
    if (this.closing) throw new Error('state.db is closed');
    if (!this.persistence) throw new Error(`state.db: ${this.file} was opened read-only`);
    return this.persistence;
  }

  private write<N extends OpName>(name: N, args: OpArgs[N]): void {
    const persistence = this.open();
    applyOp(this.db, name, args);
    this.seq++;
    persistence.queue(this.seq, [Buffer.from(journalLine({ q: this.seq, o: name, a: args }), 'utf8')], false);
  }

  /** Session changes outside a round are committed at once; inside one they join its commit. */
  private commitSessionChange(): void {
    const persistence = this.open();
    if (persistence.hasQueuedMessages) return;
    persistence.commit().catch((e) => this.log.error(`state.db: journal write failed: ${(e as Error).message}`));
  }

  private requireSession(id: string): void {
    this.open();
    if (this.known.has(id)) return;
    if (!q.sessionExists(this.db, id)) throw new Error(`state.db: no session ${id}`);
    this.known.add(id);
  }

  createSession(input: NewSession): SessionRecord {
    this.open();
    const id = input.id ?? randomUUID();
    if (q.sessionExists(this.db, id)) throw new Error(`state.db: session ${id} already exists`);
    if (input.parentId) this.requireSession(input.parentId);
    const t = this.now();
    const record: SessionRecord = {
      id,
      parentId: input.parentId ?? null,
      title: input.title,
      workspaceRoot: input.workspaceRoot,
      mode: input.mode,
      role: input.role,
      loadedTools: [...(input.loadedTools ?? [])],
      todos: [],
      modelChoice: { ...input.modelChoice },
      created: t,
      updated: t,
    };
    this.write('session.create', record);
    this.known.add(id);
    this.commitSessionChange();
    return record;
  }

  getSession(id: string): SessionRecord | null {
    return q.getSession(this.db, id);
  }

  updateSession(id: string, patch: SessionPatch): SessionRecord {
    this.requireSession(id);
    const clean: SessionPatch = {};
    if (patch.title !== undefined) clean.title = patch.title;
    if (patch.mode !== undefined) clean.mode = patch.mode;
    if (patch.role !== undefined) clean.role = patch.role;
    if (patch.loadedTools !== undefined) clean.loadedTools = [...patch.loadedTools];
    if (patch.todos !== undefined) clean.todos = patch.todos.map((t) => ({ ...t }));
    if (patch.modelChoice !== undefined) clean.modelChoice = { ...patch.modelChoice };
    this.write('session.update', { id, patch: clean, updated: this.now() });
    this.commitSessionChange();
    return q.getSession(this.db, id)!;
  }

  /** Deletes a session with its transcript, records and delegated child sessions. False when unknown. */
  deleteSession(id: string): boolean {
    this.open();
    if (!q.sessionExists(this.db, id)) return false;
    this.write('session.delete', { id });
    // Its delegated children went with it.
    this.known.clear();
    this.nextSeq.clear();
    this.commitSessionChange();
    return true;
  }

  /** Top-level sessions (children too when asked), most recently active first. */
  listSessions(opts: { includeChildren?: boolean } = {}): SessionSummary[] {
    return q.listSessions(this.db, opts.includeChildren ?? false);
  }

  childSessions(parentId: string): SessionRecord[] {
    return q.childSessions(this.db, parentId);
  }

  /** Stores a message verbatim; returns its position in the session (from 1). */
  appendMessage(sessionId: string, entry: { turn: number; round: number; message: Message }): number {
    this.requireSession(sessionId);
    const { turn, round, message } = entry;
    if (!message || typeof message !== 'object' || !['user', 'assistant', 'tool'].includes(message.role)) {
      throw new Error('state.db: appendMessage needs a user, assistant or tool message');
    }
    const persistence = this.open();
    // Large contents and tool-call arguments go to content files (stored-message.ts).
    const { stored, ref, argumentRefs } = toStored(message, this.content);
    const meta = { sessionId, seq: this.nextSeq.get(sessionId) ?? q.nextMessageSeq(this.db, sessionId), turn, round, at: this.now(), ref };
    // Encoded once: the same UTF-8 bytes go into the row and into the journal line.
    const body = Buffer.from(JSON.stringify(stored), 'utf8');
    insertMessage(this.db, meta, message.role, body);
    this.nextSeq.set(sessionId, meta.seq + 1);
    this.seq++;
    persistence.queue(this.seq, messageLine(this.seq, meta, body), true);
    // The appended message (the session's own) keeps its large arguments as references from now on (reliability N15).
    for (const a of argumentRefs) releaseArguments(a.call, a.ref, this.readContent);
    return meta.seq;
  }

  getMessages(sessionId: string): Message[] {
    return q.getStoredMessages(this.db, sessionId, this.readContent, this.holdsContent).map((m) => m.message);
  }

  /** Messages with their position, turn and round. */
  getStoredMessages(sessionId: string): StoredMessage[] {
    return q.getStoredMessages(this.db, sessionId, this.readContent, this.holdsContent);
  }

  /** Records a tool call; recording the same callId again (e.g. at its end) replaces the record. */
  recordToolCall(sessionId: string, call: ToolCallRecord): void {
    this.requireSession(sessionId);
    this.write('toolcall.record', { ...call, sessionId });
  }

  getToolCalls(sessionId: string): ToolCallRecord[] {
    return q.getToolCalls(this.db, sessionId);
  }

  recordUsage(sessionId: string, round: number, usage: Usage): void {
    this.requireSession(sessionId);
    const { promptTokens: prompt, completionTokens: completion, cachedTokens: cached } = usage;
    this.write('usage.record', { sessionId, round, prompt, completion, cached, at: this.now() });
  }

  getUsage(sessionId: string) {
    return q.getUsage(this.db, sessionId);
  }

  /**
   * Records an event; streaming deltas (text.delta, tool.output) are skipped and a tool.call is kept
   * without its arguments: the transcript holds their content (the call's message, by callId).
   */
  recordEvent(sessionId: string, event: AgentEvent): void {
    if (UNRECORDED_EVENTS.has(event.type)) return;
    this.requireSession(sessionId);
    const persistence = this.open();
    const meta = { sessionId, type: event.type, at: this.now() };
    const kept = event.type === 'tool.call' ? { ...event, args: undefined } : event;
    // Encoded once, as for messages: the row and the journal line share the bytes.
    const data = Buffer.from(JSON.stringify(kept), 'utf8');
    insertEvent(this.db, meta, data);
    this.seq++;
    persistence.queue(this.seq, eventLine(this.seq, meta, data), false);
  }

  getEvents(sessionId: string) {
    return q.getEvents(this.db, sessionId);
  }

  /**
   * Makes every write so far durable: one journal append and fdatasync, done off the event loop.
   * Called at each round end; resolves once durable, rejects when the disk refused the write (the
   * writes stay in memory and are retried by the next commit).
   */
  commitRound(): Promise<void> {
    return this.open().commit();
  }

  /** Commits and writes the whole database to state.db now. */
  flush(): Promise<void> {
    if (this.closing) return this.closing;
    return this.persistence?.flush() ?? Promise.resolve();
  }

  /** Commits, saves everything into state.db and releases the file. Further writes throw. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.persistence?.close();
      } finally {
        this.db.close();
        this.release();
      }
    })();
    return this.closing;
  }

  /** json: the whole stored transcript (every byte, children included); md: a readable transcript. */
  exportSession(id: string, format: 'json' | 'md'): string {
    if (!q.sessionExists(this.db, id)) throw new Error(`state.db: no session ${id}`);
    return format === 'json' ? exportJson(this.db, id, this.readContent, this.now()) : exportMarkdown(this.db, id, this.readContent);
  }
}
