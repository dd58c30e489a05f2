import type { Logger } from '../log';
import type { ModelClient, Usage, WireTool } from '../model/types';
import type { Settings } from '../settings/schema';
import type { ToolContext, ToolResult } from '../tools/types';
import type { AgentEvent } from './events';
import type { Message, ToolCall } from './messages';
import type { Session } from './session';
import type { ImageResolver } from './wire';
import type { Compactor } from '../context/compaction/compactor';

/** What the loop needs from state.db. Every message is stored verbatim; commitRound makes a round durable. */
export interface TranscriptSink {
  appendMessage(sessionId: string, entry: { turn: number; round: number; message: Message }): unknown;
  recordUsage(sessionId: string, round: number, usage: Usage): void;
  recordEvent?(sessionId: string, event: AgentEvent): void;
  updateSession(id: string, patch: { title?: string; mode?: string; role?: string; loadedTools?: string[] }): void;
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

/** The tools seam: which schemas go out this round, and how one call runs (guard, deferred loading, registry). */
export interface ToolRuntime {
  /** Called at the start of each user turn (per-turn counters reset). */
  beginTurn(session: Session): void;
  /** The tools block for this round. Unchanged inputs must return the same array (byte-identical JSON). */
  toolsFor(session: Session): WireTool[];
  /** Runs one call; never throws. `notify` lets the runtime report side events (tools.loaded, loop.suspected). */
  execute(session: Session, call: ToolCall, ctx: ToolContext, notify: (e: AgentEvent) => void): Promise<ToolResult>;
}

/** The prompt seam: the system prompt (byte-stable across rounds) and the messages as sent (pruned copy). */
export interface PromptBuilder {
  systemPrompt(session: Session): string;
  /** The transcript as the provider should see it; must not modify `session.messages`. */
  requestMessages(session: Session): Message[];
  imageResolver?: ImageResolver;
}

export interface LoopServices {
  /** Read per round, so a changed setting or model takes effect on the next round. */
  client(): ModelClient;
  tools: ToolRuntime;
  prompt: PromptBuilder;
  settings(): Settings;
  logger: Logger;
  sink?: TranscriptSink;
  /** Builds the context a tool runs with (file reader, approver, scratch dir, ...). */
  toolContext(session: Session, signal: AbortSignal, onOutput: (chunk: string) => void): ToolContext;
  /**
   * Awaited before each turn's first request: tool sources still listing their tools for the
   * first time (new MCP servers) finish, so the request's Deferred line names them. Bounded and
   * cancelled (by `signal`) by the source; never rejects.
   */
  beforeFirstRequest?(session: Session, signal: AbortSignal): Promise<void>;
  /** Compaction of requests that near the context window (absent: none; a context_length error ends the turn). */
  compactor?: Compactor;
}

/** Tool sources that register their tools once started (MCP servers): what the agent waits for. Never rejects; resolves at once when `signal` aborts. */
export interface StartingTools {
  /** Sources starting for the first time (no tool list seen yet): a turn's first request waits for them. */
  firstListed(signal: AbortSignal): Promise<void>;
  /** Every source whose start is in progress: tool_search waits for them before it answers not found. */
  started(signal: AbortSignal): Promise<void>;
}
