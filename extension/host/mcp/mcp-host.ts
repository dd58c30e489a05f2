import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import { formatMcpServers, loadMcpConfig, McpManager, type McpConfig } from '../../core/mcp';
import type { LoadedSettings } from '../../core/settings/load';
import type { ToolRegistry } from '../../core/tools/registry';
import type { McpSecretStore } from '../../core/mcp/oauth-store';
import { showWarning } from '../dialogs';
import { hostSignInUi } from './mcp-oauth';

/**
 * MCP servers in VS Code: the first start of a workspace-defined server asks in a modal
 * (remembered per definition hash), `${input:...}` asks with an input box, Restricted Mode keeps
 * workspace-defined servers stopped. Tools go into the registry (and the Tools tree) as deferred
 * `mcp:<server>` groups. Hosted servers that want OAuth sign in through the browser (mcp-oauth.ts),
 * their tokens in SecretStorage.
 */
export function createMcpManager(opts: { config: McpConfig; workspaceRoot?: string; cacheDir: string; registry: ToolRegistry; log: Logger; startTimeoutS?: number; secrets: McpSecretStore }): McpManager {
  const { config } = opts;
  for (const p of config.problems) opts.log.warn(`MCP: ${p}`);
  const manager = new McpManager({
    servers: config.servers,
    problems: config.problems,
    cacheDir: opts.cacheDir,
    workspaceRoot: opts.workspaceRoot,
    startTimeoutS: opts.startTimeoutS,
    logger: opts.log,
    oauth: { store: opts.secrets, ui: hostSignInUi },
    workspaceTrusted: () => vscode.workspace.isTrusted,
    // The whole definition as it will run (consent-text.ts), secrets masked.
    confirmServer: async (def, view) => {
      const start = 'Start Server';
      const question = `Snowpea: start the MCP server "${def.name}" defined in ${def.source.label}?`;
      const answer = await showWarning(question, { modal: true, detail: view.details }, start);
      return answer === start;
    },
    resolveInput: async (input, def) =>
      vscode.window.showInputBox({ title: `MCP server ${def.name}`, prompt: input.description ?? input.id, password: !!input.password, value: input.default, ignoreFocusOut: true }),
  });
  manager.attach(opts.registry);
  return manager;
}

/** The window's MCP server list: .mcp.json, .vscode/mcp.json and the setting snowpea.mcp.servers. */
export function readMcpConfig(loaded: LoadedSettings, workspaceRoot: string | undefined): McpConfig {
  return loadMcpConfig({ workspaceRoot, settingServers: loaded.settings['mcp.servers'], settingOrigin: loaded.origin['mcp.servers'], settingIsWorkspace: loaded.scope['mcp.servers'] === 'workspace' });
}

/** Snowpea: Show MCP Servers — state, source, tool count and last error of each server. */
export async function showMcpServers(manager: McpManager | undefined): Promise<void> {
  const lines = manager ? formatMcpServers(manager) : ['MCP servers start with the first chat of this window.'];
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: ['# Snowpea MCP servers', '', ...lines].join('\n') + '\n' });
  await vscode.window.showTextDocument(doc, { preview: true });
}
