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
  /** The call's card title (card-summary.ts callTitle): the tool's describeCall on the parsed arguments, else the tool's name. Never throws. */
  title(call: ToolCall): string;
  /**
   * Runs one call; never throws. `notify` lets the runtime report side events (tools.loaded, loop.suspected).
   * The result's `loadedTools` names the deferred tools the call loaded.
   */
  execute(session: Session, call: ToolCall, ctx: ToolContext, notify: (e: AgentEvent) => void): Promise<ToolResult>;
}
