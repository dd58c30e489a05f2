import * as vscode from 'vscode';
import { WorkspaceLibrary } from '../core/library';
import { libraryGroups, type LibraryGroup } from '../core/library/listing';
import type { Logger } from '../core/log';
import { claudeHome, snowpeaHome } from '../core/settings/files';
import { rootPaths } from '../core/tools/roots';
import { MAX_AGENT_CHOICES, MAX_SLASH_COMMANDS, type HostMessage } from '../protocol';

/** Workspace files the library reads: a change to one of them changes the slash menu or the Tools tree. */
const WORKSPACE_GLOB =
  '{.snowpea/commands/**,.snowpea/agents/**,.snowpea/skills/**,.claude/commands/**,.claude/agents/**,.claude/skills/**,.agents/skills/**,.github/prompts/**,.github/agents/**,.github/chatmodes/**,.github/copilot-instructions.md,.roomodes,.clinerules,.clinerules/**}';
const USER_GLOB = '{commands/**,agents/**,skills/**}';

const clip = (s: string | undefined, n: number) => (s && s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The window's WorkspaceLibrary (slash commands, custom agents, skills, instruction files), read
 * under VS Code's Workspace Trust, and told when its files or the trust change: the chat's slash
 * menu gets a new `commands` message and the Tools tree refreshes.
 */
export class LibraryHost implements vscode.Disposable {
  readonly library: WorkspaceLibrary;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter];
  private timer?: NodeJS.Timeout;

  constructor(workspaceRoot: string | undefined, log: Logger) {
    this.library = new WorkspaceLibrary({ workspaceRoot: workspaceRoot ?? snowpeaHome(), trusted: () => vscode.workspace.isTrusted, logger: log });
    const watch = (base: string, glob: string) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(base), glob));
      this.disposables.push(w, w.onDidCreate(() => this.changed()), w.onDidChange(() => this.changed()), w.onDidDelete(() => this.changed()));
    };
    // Every folder of a multi-root workspace (the library reads them all).
    if (workspaceRoot) for (const root of rootPaths(workspaceRoot)) watch(root, WORKSPACE_GLOB);
    watch(snowpeaHome(), USER_GLOB);
    watch(claudeHome(), USER_GLOB);
    this.disposables.push(vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed()));
  }

  /** A burst of file events (a checkout, a folder copied in) is one change. */
  private changed(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.emitter.fire(), 150);
  }

  /** The slash menu's list: each command's name, description, argument hint and where it is from. */
  commandsMessage(): HostMessage {
    const commands = this.library
      .commands()
      .slice(0, MAX_SLASH_COMMANDS)
      .map((c) => ({
        name: c.name,
        ...(c.description ? { description: clip(c.description, 300) } : {}),
        ...(c.argumentHint ? { argumentHint: clip(c.argumentHint, 200) } : {}),
        origin: clip(c.origin, 1000)!,
      }));
    const agents = this.library
      .agents()
      .slice(0, MAX_AGENT_CHOICES)
      .map((a) => ({ name: clip(a.name, 200)!, ...(a.description ? { description: clip(a.description, 300) } : {}) }));
    return { type: 'commands', commands, agents };
  }

  /** The Tools tree's groups after the tools (only those with entries). */
  groups(): LibraryGroup[] {
    return libraryGroups(this.library).filter((g) => g.rows.length > 0);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
