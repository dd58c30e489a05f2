/** `snowpea mcp list` and the host's "Show MCP Servers": one line per server, then config problems. */
import type { McpServerStatus } from './types';

export interface McpServerLister {
  servers(): McpServerStatus[];
  readonly problems?: string[];
}

function stateText(s: McpServerStatus): string {
  if (s.state === 'idle' && s.toolsFrom === 'cache') return 'idle (tools cached)';
  if (s.state === 'needs-auth') return 'needs sign-in';
  if (s.restarts > 0 && s.state === 'running') return `running (restarted ${s.restarts}x)`;
  return s.state;
}

export function formatMcpServers(manager: McpServerLister): string[] {
  const servers = manager.servers();
  const lines: string[] = [];
  if (!servers.length) {
    lines.push('No MCP servers configured (.vscode/mcp.json, .mcp.json, or the setting snowpea.mcp.servers).');
  } else {
    const rows = servers.map((s) => [s.name, stateText(s), `${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}`, s.source.label, `${s.transport}: ${s.target}`]);
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    servers.forEach((s, i) => {
      const row = rows[i].map((c, j) => (j < rows[i].length - 1 ? c.padEnd(widths[j]) : c)).join('  ');
      lines.push(row);
      if (s.lastError) lines.push(`    last error: ${s.lastError}`);
      if (s.envNames?.length || s.envFile) lines.push(`    env: ${[...(s.envNames ?? []), ...(s.envFile ? [`(envFile ${s.envFile})`] : [])].join(', ')}`);
    });
  }
  for (const p of manager.problems ?? []) lines.push(`problem: ${p}`);
  return lines;
}
