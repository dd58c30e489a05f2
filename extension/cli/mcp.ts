import { formatMcpServers } from '../core/mcp';
import { cliLoadedSettings, cliMcp, cliRegistry, stderrLogger, type CommonFlags } from './setup';
import { waitForMcpTools } from './mcp-wait';
import { block } from './terminal-text';

/** `snowpea mcp list`: each server's state, source, tool count and last error. */
export async function mcpCommand(sub: string | undefined, flags: CommonFlags & { json?: boolean }): Promise<number> {
  const log = stderrLogger(!!flags.verbose);
  if (sub !== undefined && sub !== 'list') {
    log.error(`unknown mcp command ${sub}: use list`);
    return 1;
  }
  const cwd = process.cwd();
  const manager = cliMcp(cwd, cliLoadedSettings(cwd, flags, log), cliRegistry(log), { ...flags, yes: false }, log);
  try {
    // Servers started to learn their tools finish first (progress on stderr), so each one's state and tool count are current.
    await waitForMcpTools(manager, 'all');
    if (flags.json) process.stdout.write(JSON.stringify(manager.servers(), null, 2) + '\n');
    else process.stdout.write(block(formatMcpServers(manager).join('\n')) + '\n');
    return 0;
  } finally {
    await manager.close();
  }
}
