import * as vscode from 'vscode';
import { closeAllBrowsers } from '../../core/browser';
import type { AgentHost } from '../agent-host';
import { attachFiles } from './attach-commands';
import { compactConversation } from '../chat/compact-command';
import { showMcpServers } from '../mcp/mcp-host';
import { signInCommand, signOutCommand } from '../mcp/mcp-oauth';
import { originOf } from '../../core/model/key-origin';
import { apiKeySecretFor } from '../settings/api-key';
import { requestBaseUrl } from '../../core/model/providers/anthropic';
import { CHAT_VIEW_ID, type ChatViewProvider } from '../view/chat-view';
import { deleteSession, exportSession, resumeSession, selectModel } from './session-commands';
import { toolCommandTable } from '../tree/tool-commands';
import type { ToolsTreeProvider } from '../tree/tools-tree';
import { showInfo } from '../dialogs';

/**
 * Open Settings (the palette command and the setup card's button) lands on where a new user
 * points Snowpea at a server: the Settings editor's `@id:` filter takes a comma-separated list
 * of setting ids and shows just those. Every other setting is one click away (clear the filter,
 * or search `@ext:snowpea.snowpea`).
 */
export const ENDPOINT_SETTINGS_QUERY = '@id:snowpea.model.baseUrl,snowpea.model.name,snowpea.model.provider';

export interface CommandDeps {
  host: AgentHost;
  chat: ChatViewProvider;
  tree: ToolsTreeProvider;
  log: vscode.LogOutputChannel;
  secrets: vscode.SecretStorage;
}

/** The MCP server a tree item's command names, if any. */
function serverOf(node: unknown): string | undefined {
  const server = (node as { server?: unknown } | undefined)?.server;
  return typeof server === 'string' ? server : undefined;
}

/** Every `Snowpea: ...` command, one handler each: a table, not a switch. */
export function commandTable(d: CommandDeps): Record<string, (...args: unknown[]) => unknown> {
  return {
    'snowpea.newChat': () => d.chat.newChat(),
    'snowpea.focusChat': () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`),
    'snowpea.openChatInEditor': () => d.chat.openInEditor(),
    'snowpea.stop': () => d.host.stop(),
    'snowpea.showTools': () => vscode.commands.executeCommand('snowpea.tools.focus'),
    'snowpea.refreshTools': () => d.tree.refresh(),
    'snowpea.showToolsJson': async () => {
      await d.host.ensureAgentTools();
      const s = d.host.currentSettings();
      const rows = d.host.registry.listCatalog().map((t) => ({ ...t, deferred: s['tools.deferred'] && t.deferred && !s['tools.eager'].includes(t.name) }));
      const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(rows, null, 2) });
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    'snowpea.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', ENDPOINT_SETTINGS_QUERY),
    'snowpea.showLog': () => d.log.show(),
    'snowpea.resumeSession': () => resumeSession(d.host, d.chat),
    'snowpea.exportSession': () => exportSession(d.host, d.chat),
    'snowpea.deleteSession': () => deleteSession(d.host, d.chat),
    'snowpea.selectModel': () => selectModel(d.host),
    'snowpea.compactConversation': () => compactConversation(d.host, d.log),
    'snowpea.attachImage': () => attachFiles(d.chat, true),
    'snowpea.attachFile': () => attachFiles(d.chat, false),
    'snowpea.showMcpServers': () => showMcpServers(d.host.mcpManager()),
    // From the palette (no argument) or the Tools tree's "needs sign-in" item (its node names the server).
    'snowpea.mcpSignIn': (node) => signInCommand(d.host.mcpManager(), serverOf(node)),
    'snowpea.mcpSignOut': (node) => signOutCommand(d.host.mcpManager(), serverOf(node)),
    'snowpea.closeBrowser': async () => {
      await closeAllBrowsers();
      void showInfo('Snowpea: browser closed.');
    },
    ...toolCommandTable(d.host),
    'snowpea.review.accept': (uri) => d.host.edits.review.answer('allow', uri),
    'snowpea.review.rejectHunk': () => d.host.edits.review.rejectHunk(),
    'snowpea.review.reject': (uri) => d.host.edits.review.answer('deny', uri),
    'snowpea.changes.keepAll': () => d.host.edits.changes.keep(),
    'snowpea.changes.undoAll': () => d.host.edits.changes.undo(),
    'snowpea.changes.keepHunk': () => d.host.edits.changes.hunkAtCursor('keep'),
    'snowpea.changes.undoHunk': () => d.host.edits.changes.hunkAtCursor('undo'),
    'snowpea.setApiKey': async () => {
      // Bound to where requests go: the anthropic provider's endpoint, else model.baseUrl.
      const baseUrl = requestBaseUrl(d.host.currentSettings());
      const secret = apiKeySecretFor(baseUrl);
      const key = await vscode.window.showInputBox({ prompt: `API key for ${originOf(baseUrl)} (kept in VS Code SecretStorage and sent only there)`, password: true, ignoreFocusOut: true });
      if (key === undefined) return;
      if (key) await d.secrets.store(secret, key);
      else await d.secrets.delete(secret);
      void showInfo(key ? 'Snowpea: API key saved.' : 'Snowpea: API key removed.');
    },
  };
}

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  return Object.entries(commandTable(d)).map(([id, fn]) => vscode.commands.registerCommand(id, fn));
}
