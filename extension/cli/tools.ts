import * as path from 'node:path';
import { Session } from '../core/conversation/session';
import { SessionToolRuntime } from '../core/tools/runtime';
import { snowpeaHome } from '../core/settings/files';
import { createDiskFileReader, createDiskFileWriter } from '../core/tools/disk-reader';
import type { ToolContext } from '../core/tools/types';
import { closeAllBrowsers } from '../core/browser';
import type { Logger } from '../core/log';
import type { Settings } from '../core/settings/schema';
import type { ToolRegistry } from '../core/tools/registry';
import { createCliAgent, stderrLogger, type CommonFlags } from './setup';
import { terminalAskUser } from './terminal';
import { terminalApprover } from './terminal-approver';
import { block, oneLine } from './terminal-text';
import { ApprovalMemory } from '../core/tools/policy/memory';
import { onStopSignals } from './process-exit';
import { toolArgsText } from './tool-args';
import { waitForMcpTools } from './mcp-wait';
import { groupRank } from '../core/tools/deferred';
import { libraryGroups, type LibraryGroup } from '../core/library/listing';

/** `Commands (2)` and one line per entry (name, where from, description), notes indented under it; every file's text escaped. */
export function libraryText(groups: LibraryGroup[]): string {
  let out = '';
  for (const g of groups) {
    if (!g.rows.length) continue;
    out += `${g.title} (${g.rows.length})\n`;
    for (const r of g.rows) {
      const from = r.origin === r.label ? '' : `  ${oneLine(r.origin)}`;
      out += `  ${oneLine(r.label)}${from}${r.description ? ` · ${oneLine(r.description)}` : ''}\n`;
      if (r.tools) out += `      tools: ${oneLine(r.tools)}\n`;
      for (const n of r.notes) out += `      ${oneLine(n)}\n`;
    }
  }
  return out;
}

export interface ToolsFlags extends CommonFlags {
  json?: boolean;
  args?: string;
}

/** `snowpea tools list [--json]` and `snowpea tools call NAME --args JSON|@FILE|-`. */
export async function toolsCommand(sub: string | undefined, name: string | undefined, flags: ToolsFlags): Promise<number> {
  const log = stderrLogger(!!flags.verbose);
  const cwd = process.cwd();
  // The same registry the agent uses (tool_search and delegate_task included), without a state.db.
  const { agent, settings, registry, mcp } = await createCliAgent(cwd, flags, log, { withStore: false });
  try {
    // MCP servers never seen before list their tools first (progress on stderr), so they are listed and callable.
    await waitForMcpTools(mcp, 'first');
    const code = await toolsSubcommand(sub, name, flags, { cwd, settings, registry, log });
    // After the tools: the commands, agents, skills and instruction files this folder brings (the Tools tree's groups).
    if ((sub === 'list' || sub === undefined) && !flags.json) process.stdout.write(libraryText(libraryGroups(agent.library)));
    return code;
  } finally {
    agent.dispose();
    await Promise.all([mcp.close(), closeAllBrowsers()]);
  }
}

async function toolsSubcommand(
  sub: string | undefined,
  name: string | undefined,
  flags: ToolsFlags,
  { cwd, settings, registry, log }: { cwd: string; settings: Settings; registry: ToolRegistry; log: Logger },
): Promise<number> {
  if (sub === 'list' || sub === undefined) {
    const catalog = registry.listCatalog().map((t) => ({ ...t, deferred: settings['tools.deferred'] ? t.deferred && !settings['tools.eager'].includes(t.name) : false }));
    // The Tools tree's order: the eager (Core) tools first, then the deferred groups as the Deferred line orders them.
    const rank = (t: (typeof catalog)[number]) => (t.deferred ? groupRank(t.group) : -1);
    const rows = catalog.map((t, i) => ({ t, i })).sort((a, b) => rank(a.t) - rank(b.t) || (a.t.deferred ? a.t.group.localeCompare(b.t.group) : 0) || a.i - b.i).map(({ t }) => t);
    if (flags.json) {
      process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      return 0;
    }
    const groups = new Map<string, typeof rows>();
    for (const r of rows) {
      const key = r.deferred ? r.group : 'Core';
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    for (const [group, tools] of groups) {
      const eager = tools.every((t) => !t.deferred);
      process.stdout.write(`${group} (${tools.length}, ${eager ? 'eager' : 'deferred'})\n`);
      for (const t of tools) process.stdout.write(`  ${oneLine(t.name).padEnd(22)} ${t.permission.padEnd(9)} ${oneLine(t.summary)}\n`);
    }
    return 0;
  }
  if (sub !== 'call') {
    log.error(`unknown tools command ${sub}: use list or call`);
    return 1;
  }
  if (!name || !registry.has(name)) {
    log.error(name ? `unknown tool ${name} (see: snowpea tools list)` : 'snowpea tools call needs a tool name');
    return 1;
  }
  const args = await toolArgsText(flags.args, cwd);
  const session = new Session({ workspaceRoot: cwd });
  const runtime = new SessionToolRuntime(registry, () => settings);
  const controller = new AbortController();
  const stop = onStopSignals(controller);
  const ctx: ToolContext = {
    workspaceRoot: cwd,
    fileReader: createDiskFileReader(),
    fileWriter: createDiskFileWriter(),
    approver: terminalApprover(),
    approvals: new ApprovalMemory(!!flags.yes),
    askUser: terminalAskUser(),
    signal: controller.signal,
    settings,
    session: { id: session.id, mode: session.mode, role: session.role, isSubagent: false },
    scratchDir: path.join(snowpeaHome(), 'scratch', 'cli'),
    loadTools: (names) => session.loadTools(names),
  };
  try {
    const result = await runtime.catalog.invoke(name, args, ctx);
    if (flags.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else {
      // On a terminal the result (a file's text, a command's output) is escaped like all text there; piped, it is as the tool gave it.
      const text = process.stdout.isTTY ? block(result.content) : result.content;
      process.stdout.write(text + (text.endsWith('\n') ? '' : '\n'));
    }
    return stop.exitCode(result.ok ? 0 : 1);
  } finally {
    stop.dispose();
  }
}
