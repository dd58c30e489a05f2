import type { StartingTools } from '../core/tools/starting-tools';
import type { McpManager } from '../core/mcp';
import { oneLine } from './terminal-text';

/** The progress line on stderr while MCP servers start: `snowpea: waiting for the MCP server "fs" to list its tools (up to 30 s)…`. */
export function mcpWaitLine(servers: string[], timeoutS: number): string {
  const names = servers.map((s) => `"${oneLine(s)}"`).join(', ');
  return `snowpea: waiting for the MCP server${servers.length === 1 ? '' : 's'} ${names} to list ${servers.length === 1 ? 'its' : 'their'} tools (up to ${timeoutS} s)…\n`;
}

const printWait = (mcp: McpManager) => (servers: string[]) => void process.stderr.write(mcpWaitLine(servers, mcp.startTimeoutS));

/** What a CLI agent waits for before a turn's first request and before tool_search answers not found, with the progress line. */
export function cliStartingTools(mcp: McpManager): StartingTools {
  return {
    firstListed: (signal) => mcp.whenFirstListed(signal, printWait(mcp)),
    started: (signal) => mcp.whenStarted(signal, printWait(mcp)),
  };
}

/** `snowpea tools list` and `mcp list`: servers starting for the first time (`first`) or all still starting finish first, with the progress line. */
export function waitForMcpTools(mcp: McpManager, which: 'first' | 'all'): Promise<void> {
  return which === 'first' ? mcp.whenFirstListed(undefined, printWait(mcp)) : mcp.whenStarted(undefined, printWait(mcp));
}
