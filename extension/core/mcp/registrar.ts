/**
 * Keeps one ToolRegistry in step with the MCP servers' tool lists: registers each tool as
 * `mcp__<server>__<tool>`, replaces a tool whose schema or description changed, and removes
 * tools a server no longer lists (or whose server may not be used).
 */
import type { Disposable } from '../conversation/emitter';
import type { ToolRegistry } from '../tools/registry';
import type { AnyTool, ToolContext, ToolResult } from '../tools/types';
import { mcpToolName, uniqueName } from './names';
import { mcpToolDefinition } from './tool-adapter';
import type { McpToolInfo } from './types';

interface Registered {
  info: McpToolInfo;
  key: string;
  tool: AnyTool;
  handle: Disposable;
}

export type McpCall = (server: string, tool: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>;

export class McpToolRegistrar implements Disposable {
  /** server name -> MCP tool name -> registration */
  private readonly byServer = new Map<string, Map<string, Registered>>();

  constructor(
    readonly registry: ToolRegistry,
    private readonly call: McpCall,
  ) {}

  /** Registered names of a server's tools. */
  namesOf(server: string): string[] {
    return [...(this.byServer.get(server)?.values() ?? [])].map((r) => r.tool.name);
  }

  /** The server a registered tool name belongs to. */
  serverOf(toolName: string): string | undefined {
    for (const [server, tools] of this.byServer) for (const r of tools.values()) if (r.tool.name === toolName) return server;
    return undefined;
  }

  /** Every registered MCP tool with its server. */
  tools(): Array<{ server: string; tool: AnyTool }> {
    return [...this.byServer].flatMap(([server, m]) => [...m.values()].map((r) => ({ server, tool: r.tool })));
  }

  sync(server: string, tools: McpToolInfo[]): void {
    const current = this.byServer.get(server) ?? new Map<string, Registered>();
    this.byServer.set(server, current);
    const wanted = new Map(tools.map((t) => [t.name, t]));
    for (const [name, r] of [...current]) {
      const next = wanted.get(name);
      if (next && JSON.stringify(next) === r.key) continue;
      r.handle.dispose();
      current.delete(name);
    }
    for (const info of tools) {
      if (current.has(info.name)) continue;
      const name = uniqueName(mcpToolName(server, info.name), (n) => this.registry.has(n));
      const tool = mcpToolDefinition({ server, info, name, call: (args, ctx) => this.call(server, info.name, args, ctx) });
      try {
        current.set(info.name, { info, key: JSON.stringify(info), tool, handle: this.registry.register(tool) });
      } catch {
        /* a name the registry refuses: leave that one tool out */
      }
    }
    if (!current.size) this.byServer.delete(server);
  }

  dispose(): void {
    for (const m of this.byServer.values()) for (const r of m.values()) r.handle.dispose();
    this.byServer.clear();
  }
}
