import * as vscode from 'vscode';
import { DisposableStore } from '../core/conversation/emitter';
import { groupRank } from '../core/tools/deferred';
import type { AnyTool } from '../core/tools/types';
import type { AgentHost } from './agent-host';

export type ToolNode = { kind: 'group'; group: string; tools: AnyTool[]; eager: boolean } | { kind: 'tool'; tool: AnyTool; eager: boolean };
type Node = ToolNode;

const PERMISSION_ICONS: Record<string, string> = {
  read: 'eye',
  write: 'edit',
  exec: 'terminal',
  network: 'globe',
  interact: 'comment-discussion',
  agent: 'hubot',
};

/** "Snowpea Tools": every registered tool, grouped (Core first), with permission, summary and loaded state. */
export class ToolsTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly disposables = new DisposableStore();

  constructor(private readonly host: AgentHost) {
    this.disposables.add(this.emitter);
    this.disposables.add(host.onDidChange(() => this.refresh()));
    this.disposables.add(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('snowpea.tools') && this.refresh()));
    this.disposables.add(host.registry.onDidChange(() => this.refresh()));
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  private isEager(t: AnyTool): boolean {
    const s = this.host.currentSettings();
    return !s['tools.deferred'] || !t.deferred || s['tools.eager'].includes(t.name);
  }

  getChildren(node?: Node): Node[] {
    if (node?.kind === 'group') return node.tools.map((tool) => ({ kind: 'tool', tool, eager: node.eager }));
    if (node) return [];
    // tool_search and delegate_task come with the agent; the registry change refreshes the tree.
    void this.host.ensureAgentTools();
    const tools = this.host.registry.all();
    const eager = tools.filter((t) => this.isEager(t));
    const groups = new Map<string, AnyTool[]>();
    for (const t of tools.filter((t) => !this.isEager(t))) groups.set(t.group, [...(groups.get(t.group) ?? []), t]);
    // The order of the system prompt's Deferred line: browser, git, media, memory, fs, then MCP servers.
    const ordered = [...groups.entries()].sort(([a], [b]) => groupRank(a) - groupRank(b) || a.localeCompare(b));
    return [
      { kind: 'group', group: 'Core', tools: eager, eager: true },
      ...ordered.map(([group, ts]): Node => ({ kind: 'group', group, tools: ts, eager: false })),
    ];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(`${node.group} (${node.tools.length})`, vscode.TreeItemCollapsibleState.Expanded);
      // A stable id keeps a group the user collapsed collapsed when the tree refreshes.
      item.id = `group:${node.group}`;
      item.description = node.eager ? 'eager' : 'deferred';
      item.contextValue = 'snowpea.toolGroup';
      return item;
    }
    const t = node.tool;
    const loaded = this.host.currentSession()?.loadedTools.includes(t.name) ?? false;
    const item = new vscode.TreeItem(t.name, vscode.TreeItemCollapsibleState.None);
    item.id = `tool:${t.name}`;
    const schema = JSON.stringify({ name: t.name, description: t.description, parameters: this.host.registry.jsonSchemaOf(t.name) });
    // About 4 characters per token: what this tool's schema costs in every round it is sent.
    const tokens = Math.ceil(schema.length / 4);
    // "loaded" first: the side bar is narrow and the end of a description is cut off.
    item.description = `${!node.eager && loaded ? 'loaded · ' : ''}${t.permission} · ${t.summary} · ~${tokens} tok`;
    item.command = { command: 'snowpea.showToolSchema', title: 'Show Schema', arguments: [node] };
    item.iconPath = new vscode.ThemeIcon(PERMISSION_ICONS[t.permission] ?? 'tools');
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${t.name}** — ${t.permission}${node.eager ? ', eager' : loaded ? ', deferred (loaded)' : ', deferred'}\n\n`);
    md.appendText(t.description);
    md.appendCodeblock(JSON.stringify(this.host.registry.jsonSchemaOf(t.name), null, 2), 'json');
    item.tooltip = md;
    // Remove from Eager only where Add to Eager put it: a built-in core tool is always eager.
    const userEager = node.eager && t.deferred && this.host.currentSettings()['tools.eager'].includes(t.name);
    item.contextValue = userEager ? 'snowpea.tool.userEager' : node.eager ? 'snowpea.tool.eager' : 'snowpea.tool.deferred';
    return item;
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
