import type { ModelChoice, Usage } from '../model/types';
import type { AgentEvent, Mode, TodoItem } from './events';
import type { Message } from './messages';

/** What the loop needs from state.db. Every message is stored verbatim; commitRound makes a round durable. */
export interface TranscriptSink {
  appendMessage(sessionId: string, entry: { turn: number; round: number; message: Message }): unknown;
  recordUsage(sessionId: string, round: number, usage: Usage): void;
  recordEvent?(sessionId: string, event: AgentEvent): void;
  updateSession(id: string, patch: { title?: string; mode?: Mode; role?: string; loadedTools?: string[]; todos?: TodoItem[]; modelChoice?: ModelChoice }): void;
  /** One record per finished tool call (the tool_calls table: outcome and timing). */
  recordToolCall?(sessionId: string, call: ToolCallRecordInput): void;
  commitRound(): void | Promise<void>;
}

/** What the loop records of one tool call; `args` is capped (the transcript holds them whole). */
export interface ToolCallRecordInput {
  callId: string;
  tool: string;
  args: string;
  ok: boolean | null;
  errorCode?: string | null;
  turn?: number | null;
  round?: number | null;
  started: number;
  ended?: number | null;
}
