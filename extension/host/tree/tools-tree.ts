import * as vscode from 'vscode';
import { DisposableStore } from '../../core/conversation/emitter';
import { groupRank } from '../../core/tools/deferred';
import type { AnyTool } from '../../core/tools/types';
import type { AgentHost } from '../agent-host';
import type { LibraryGroup, LibraryRow } from '../../core/library/listing';
import { escapeHidden } from '../../core/text/hidden-chars';

export type ToolNode = { kind: 'group'; group: string; tools: AnyTool[]; eager: boolean } | { kind: 'tool'; tool: AnyTool; eager: boolean };
/** After the tools: the commands, agents, skills and instruction files the workspace and the user bring (library-host.ts). */
type LibraryNode = { kind: 'library'; group: LibraryGroup } | { kind: 'entry'; group: LibraryGroup['title']; row: LibraryRow };
/** A hosted MCP server that needs sign-in (its tools stay away until then); a click signs in. */
type McpAuthNode = { kind: 'mcpAuth'; server: string; target: string };
type Node = ToolNode | LibraryNode | McpAuthNode;

const LIBRARY_ICONS: Record<LibraryGroup['title'], string> = { Commands: 'symbol-event', Agents: 'hubot', Skills: 'book', 'Instruction files': 'note' };

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
  /** The MCP manager whose state changes refresh the tree (the lifecycle replaces it when the server list changes). */
  private watched?: { manager: object; sub: { dispose(): void } };

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
    if (node?.kind === 'library') return node.group.rows.map((row) => ({ kind: 'entry', group: node.group.title, row }));
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
      ...this.needsSignIn(),
      { kind: 'group', group: 'Core', tools: eager, eager: true },
      ...ordered.map(([group, ts]): Node => ({ kind: 'group', group, tools: ts, eager: false })),
      ...this.host.library.groups().map((group): Node => ({ kind: 'library', group })),
    ];
  }

  /** MCP servers waiting for the user to sign in, first so they are seen. */
  private needsSignIn(): McpAuthNode[] {
    const mcp = this.host.existingMcpManager();
    if (!mcp) return [];
    if (this.watched?.manager !== mcp) {
      this.watched?.sub.dispose();
      this.watched = { manager: mcp, sub: mcp.onDidChange(() => this.refresh()) };
    }
    return mcp
      .servers()
      .filter((s) => s.state === 'needs-auth')
      .map((s) => ({ kind: 'mcpAuth', server: s.name, target: s.target }));
  }

  private mcpAuthItem(node: McpAuthNode): vscode.TreeItem {
    const item = new vscode.TreeItem(escapeHidden(`mcp:${node.server}`), vscode.TreeItemCollapsibleState.None);
    item.id = `mcpAuth:${node.server}`;
    item.description = 'needs sign-in';
    item.tooltip = escapeHidden(`${node.target}\nThis server wants OAuth sign-in; click to sign in (your browser opens after a confirmation).`);
    item.iconPath = new vscode.ThemeIcon('key');
    item.command = { command: 'snowpea.mcpSignIn', title: 'Sign in to MCP server', arguments: [node] };
    item.contextValue = 'snowpea.mcpNeedsSignIn';
    return item;
  }

  /** A group of the library, collapsed (the tools come first), or one of its entries: the text its files chose, escaped; a click opens the file. */
  private libraryItem(node: LibraryNode): vscode.TreeItem {
    if (node.kind === 'library') {
      const item = new vscode.TreeItem(`${node.group.title} (${node.group.rows.length})`, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `library:${node.group.title}`;
      item.contextValue = 'snowpea.libraryGroup';
      return item;
    }
    const r = node.row;
    const item = new vscode.TreeItem(escapeHidden(r.label), vscode.TreeItemCollapsibleState.None);
    item.id = `entry:${node.group}:${r.origin}`;
    item.description = escapeHidden([r.origin === r.label ? undefined : r.origin, r.description].filter(Boolean).join(' · '));
    item.iconPath = new vscode.ThemeIcon(LIBRARY_ICONS[node.group]);
    const md = new vscode.MarkdownString();
    md.appendText(escapeHidden([`${r.label} (${r.origin})`, r.description, r.tools && `tools: ${r.tools}`, ...r.notes].filter(Boolean).join('\n')));
    item.tooltip = md;
    item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(r.file)] };
    item.contextValue = 'snowpea.libraryEntry';
    return item;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'library' || node.kind === 'entry') return this.libraryItem(node);
    if (node.kind === 'mcpAuth') return this.mcpAuthItem(node);
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
    this.watched?.sub.dispose();
    this.disposables.dispose();
  }
}
