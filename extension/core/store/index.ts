/** state.db on sql.js: the public surface of the store. */
export { openStateDb, journalPath, DEFAULT_IDLE_MS, DEFAULT_FOLD_JOURNAL_BYTES } from './open';
export { StateDb } from './state-db';
export { StateDbBusyError } from './lock';
export { locateSqlWasm, loadSqlJs } from './wasm';
export { SCHEMA_VERSION } from './schema';
export type { SessionTranscript } from './export';
export type {
  EventRecord,
  NewSession,
  SessionPatch,
  SessionRecord,
  SessionSummary,
  StateDbOptions,
  StoredMessage,
  ToolCallRecord,
  UsageRecord,
} from './types';
