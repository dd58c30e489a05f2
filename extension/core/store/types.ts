/** The shapes state.db hands out and takes in. Times are epoch milliseconds. */
import type { Mode, TodoItem } from '../conversation/events';
import type { Message } from '../conversation/messages';
import type { ModelChoice } from '../model/types';
import type { ToolCallRecordInput } from '../conversation/transcript-sink';
import type { Logger } from '../log';

export interface SessionRecord {
  id: string;
  /** The parent session of a delegated (child) session, else null. */
  parentId: string | null;
  title: string;
  workspaceRoot: string;
  mode: Mode;
  role: string;
  /** Deferred tools loaded in this session, in load order. */
  loadedTools: string[];
  /** The model's todo list (todo_write); [] when it kept none. */
  todos: TodoItem[];
  /** The model and effort picked for this session in the chat ({}: the settings' own). */
  modelChoice: ModelChoice;
  created: number;
  updated: number;
}

export interface NewSession {
  id?: string;
  parentId?: string | null;
  title: string;
  workspaceRoot: string;
  mode: Mode;
  role: string;
  loadedTools?: string[];
  modelChoice?: ModelChoice;
}

export interface SessionPatch {
  title?: string;
  mode?: Mode;
  role?: string;
  loadedTools?: string[];
  todos?: TodoItem[];
  modelChoice?: ModelChoice;
}

/** One row of listSessions(): what a history list or `snowpea sessions list --json` shows. */
export interface SessionSummary {
  id: string;
  title: string;
  created: number;
  updated: number;
  /** Model rounds stored: the number of distinct (turn, round) pairs that hold an assistant message. */
  rounds: number;
}

export interface StoredMessage {
  /** Position in the session, from 1. */
  seq: number;
  turn: number;
  round: number;
  message: Message;
}

/** A tool call's record, as the loop records it (conversation/transcript-sink.ts); recording the same callId again replaces it (start, then end). */
export type ToolCallRecord = ToolCallRecordInput;

export interface UsageRecord {
  round: number;
  prompt: number;
  completion: number;
  cached: number;
  at: number;
}

export interface EventRecord {
  type: string;
  at: number;
  /** The AgentEvent as recorded. */
  event: unknown;
}

export interface StateDbOptions {
  /** The database file, e.g. ~/.snowpea/state.db. Its folder is created when missing. */
  file: string;
  log?: Logger;
  /** Where sql-wasm.wasm is; found beside the bundle or in node_modules when omitted. */
  wasmPath?: string;
  /** The clock (tests pass a fake one). */
  now?: () => number;
  /**
   * After this long without writes, trailing writes (events, session changes) are committed, and a
   * due fold runs. 0 turns the timer off (tests, benchmarks). Default 2000.
   */
  idleMs?: number;
  /**
   * The journal is folded into state.db once it reaches max(this, a quarter of state.db's size);
   * checked at each commit and when idle. Default 4 MiB. Infinity: only on flush() and close().
   */
  foldJournalBytes?: number;
  /** Refuse to open a file another live process holds (default true). */
  lock?: boolean;
  /**
   * Read a snapshot (plus the journal, replayed in memory) without taking the lock and without
   * writing, moving or creating anything: works while another process writes. Writes throw.
   */
  readOnly?: boolean;
}
