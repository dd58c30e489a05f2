import type { AgentEvent } from '../conversation/events';
import type { ToolCall } from '../conversation/messages';
import type { Session } from '../conversation/session';
import type { WireTool } from '../model/types';
import type { ToolContext, ToolResult } from './types';

/** The tools seam: which schemas go out this round, and how one call runs (guard, deferred loading, registry). */
export interface ToolRuntime {
  /** Called at the start of each user turn (per-turn counters reset). */
  beginTurn(session: Session): void;
  /** The tools block for this round. Unchanged inputs must return the same array (byte-identical JSON). */
  toolsFor(session: Session): WireTool[];
  /** Runs one call; never throws. `notify` lets the runtime report side events (tools.loaded, loop.suspected). */
  execute(session: Session, call: ToolCall, ctx: ToolContext, notify: (e: AgentEvent) => void): Promise<ToolResult>;
}
