/** Helpers for MCP tests: the stdio fixture server as a config entry, its start log, a manager on a temp cache. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadMcpConfig } from '../../../extension/core/mcp/config';
import { McpManager, type McpManagerOptions } from '../../../extension/core/mcp/manager';
import { tempDir } from '../tools/helpers';

export const STDIO_FIXTURE = path.resolve(__dirname, '../../fixtures/mcp-stdio-server.ts');
const TSX = pathToFileURL(require.resolve('tsx')).href;

/** A `{command, args, env}` entry that runs the stdio fixture under tsx. */
export function stdioEntry(env: Record<string, string> = {}, extraArgs: string[] = []): Record<string, unknown> {
  return { command: process.execPath, args: ['--import', TSX, STDIO_FIXTURE, ...extraArgs], env };
}

/** How many times the fixture started (it appends one line per start to MCP_FIXTURE_LOG). */
export function starts(logFile: string): number {
  try {
    return fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

export interface ManagerSetup {
  manager: McpManager;
  cacheDir: string;
  workspace: string;
}

/** A manager over the given `mcp.servers` entries (user-defined unless the workspace files say otherwise). */
export function managerFor(
  settingServers: Record<string, Record<string, unknown>>,
  extra: Partial<McpManagerOptions> & { workspace?: string; cacheDir?: string } = {},
): ManagerSetup {
  const workspace = extra.workspace ?? tempDir('sp-mcp-ws-');
  const cacheDir = extra.cacheDir ?? tempDir('sp-mcp-cache-');
  const cfg = loadMcpConfig({ workspaceRoot: workspace, settingServers, settingOrigin: 'user settings' });
  const manager = new McpManager({
    servers: cfg.servers,
    problems: cfg.problems,
    cacheDir,
    workspaceRoot: workspace,
    restartBackoff: { baseMs: 20, maxMs: 200, maxWaitMs: 1000 },
    startTimeoutS: 30,
    ...extra,
  });
  return { manager, cacheDir, workspace };
}
