/** Tool sources that register their tools once started (MCP servers): what the agent waits for. Never rejects; resolves at once when `signal` aborts. */
export interface StartingTools {
  /** Sources starting for the first time (no tool list seen yet): a turn's first request waits for them. */
  firstListed(signal: AbortSignal): Promise<void>;
  /** Every source whose start is in progress: tool_search waits for them before it answers not found. */
  started(signal: AbortSignal): Promise<void>;
}
