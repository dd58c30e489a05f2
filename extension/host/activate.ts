import * as vscode from 'vscode';
import { AgentHost } from './agent-host';
import { CHAT_VIEW_ID, ChatViewProvider } from './view/chat-view';
import { registerCommands } from './commands/commands';
import { createLog } from './log';
import { useVsCodeRipgrep } from './workspace/ripgrep';
import { createStatusBar } from './view/status-bar';
import { ToolSchemaDocuments } from './tree/tool-schema-docs';
import { ToolsTreeProvider } from './tree/tools-tree';

let host: AgentHost | undefined;

/** Activation is light: views and commands are registered; state.db and the agent start on first use. */
export function activate(context: vscode.ExtensionContext): void {
  // snowpea.log.level, read as each message is logged (the settings are loaded once per change).
  const { channel, logger } = createLog(() => host?.currentSettings()['log.level'] ?? 'info');
  useVsCodeRipgrep(vscode.env.appRoot, logger);
  host = new AgentHost(context, logger);
  const chat = new ChatViewProvider(context.extensionUri, host, logger);
  const tree = new ToolsTreeProvider(host);
  context.subscriptions.push(
    channel,
    host,
    chat,
    tree,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chat),
    vscode.window.createTreeView('snowpea.tools', { treeDataProvider: tree, showCollapseAll: true }),
    ...registerCommands({ host, chat, tree, log: channel, secrets: context.secrets }),
    createStatusBar(host),
    new ToolSchemaDocuments(host.registry).register(),
  );
  logger.info(`Snowpea activated (workspace ${vscode.workspace.isTrusted ? 'trusted' : 'restricted'})`);
}

export async function deactivate(): Promise<void> {
  await host?.dispose();
  host = undefined;
}
