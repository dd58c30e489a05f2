import { formatMcpServers } from '../core/mcp';
import { cliLoadedSettings, cliMcp, cliRegistry, stderrLogger, type CommonFlags } from './setup';

/** `snowpea mcp list`: each server's state, source, tool count and last error. */
export async function mcpCommand(sub: string | undefined, flags: CommonFlags & { json?: boolean }): Promise<number> {
  const log = stderrLogger(!!flags.verbose);
  if (sub !== undefined && sub !== 'list') {
    log.error(`unknown mcp command ${sub}: use list`);
    return 1;
  }
  const cwd = process.cwd();
  const manager = cliMcp(cwd, cliLoadedSettings(cwd, flags, log), cliRegistry(), { ...flags, yes: false }, log);
  try {
    await Promise.race([manager.ready(), new Promise((r) => setTimeout(r, 10_000).unref())]);
    if (flags.json) process.stdout.write(JSON.stringify(manager.servers(), null, 2) + '\n');
    else process.stdout.write(formatMcpServers(manager).join('\n') + '\n');
    return 0;
  } finally {
    await manager.close();
  }
}
