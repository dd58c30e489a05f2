import type { Logger } from '../log';
import type { ModelClient, Usage, WireMessage, WireTool } from '../model/types';
import type { Settings } from '../settings/schema';
import type { ToolContext } from '../tools/types';
import type { ToolRuntime } from '../tools/tool-runtime';
import type { AgentEvent, MeterEvent } from '../conversation/events';
import type { Session } from '../conversation/session';
import type { TranscriptSink } from '../conversation/transcript-sink';
import type { PromptBuilder } from '../context/prompt-builder';
import type { Compactor } from '../context/compaction/compactor';

/** What the loop runs on: the model, the tools, the prompt, the settings and the transcript sink. */
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
  /**
   * Before each model request, once any compaction is done (the money budget): resolves to
   * undefined to send `request`, or to why the turn stops instead. It may wait for the user. `tell`
   * reports an event that is not stored (the expected cost, a notice).
   */
  beforeRequest?(session: Session, request: { wire: readonly WireMessage[]; tools: readonly WireTool[] }, signal: AbortSignal, tell: (e: AgentEvent) => void): Promise<string | undefined>;
  /** The context meter of a round the provider reported usage for, emitted after its `usage` (absent, or undefined for a session: none). */
  meter?(session: Session, usage: Usage): MeterEvent | undefined;
}
