import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StartingTools } from '../../core/tools/starting-tools';
import type { Logger } from '../../core/log';
import type { McpConfig, McpManager } from '../../core/mcp';
import type { LoadedSettings } from '../../core/settings/load';
import type { ToolRegistry } from '../../core/tools/registry';
import type { McpSecretStore } from '../../core/mcp/oauth-store';
import { createMcpManager, readMcpConfig } from './mcp-host';
import { notifyNeedsSignIn } from './mcp-oauth';
import { showMcpStartProgress } from './mcp-progress';

/** One save shows up as several file events (create, change, change): they are read as one. */
const SETTLE_MS = 300;

/**
 * The window's MCP servers over time: the manager is built on first use, and built again when
 * the server list changes (the setting snowpea.mcp.servers, or .mcp.json / .vscode/mcp.json on
 * disk). The old servers stop and their tools leave the registry; the new ones start on use.
 * A change that leaves every definition as it was (same names and definition hashes) keeps the
 * running servers.
 */
export class McpLifecycle implements vscode.Disposable {
  private mcp?: McpManager;
  /** The manager's start notifications. */
  private progress?: vscode.Disposable;
  private readonly fileWatch: vscode.Disposable;
  private key = '';
  private settle?: NodeJS.Timeout;

  constructor(
    private readonly o: {
      registry: ToolRegistry;
      cacheDir: string;
      log: Logger;
      settings: () => LoadedSettings;
      workspaceRoot: () => string | undefined;
      /** Where hosted servers' OAuth tokens live (SecretStorage). */
      secrets: McpSecretStore;
    },
  ) {
    this.fileWatch = this.watchConfigFiles();
  }

  /** The manager, built on first use (cached tool lists show at once). */
  manager(): McpManager {
    if (!this.mcp) this.build(this.readConfig());
    return this.mcp!;
  }

  existing(): McpManager | undefined {
    return this.mcp;
  }

  /**
   * What the agent waits for: servers of the current list starting for the first time (before a
   * turn's first request) or still starting (before tool_search answers not found). The start
   * progress notification shows meanwhile; its Cancel, or Stop, ends the wait.
   */
  startingTools(): StartingTools {
    return {
      firstListed: async (signal) => this.mcp?.whenFirstListed(signal),
      started: async (signal) => this.mcp?.whenStarted(signal),
    };
  }

  /** Settings were reloaded (a change, or Workspace Trust granted): rebuild if the list changed, else re-check trust. */
  settingsChanged(): void {
    if (!this.mcp) return;
    if (!this.rebuildIfChanged('the MCP settings changed')) this.mcp.refreshAccess();
  }

  async close(): Promise<void> {
    clearTimeout(this.settle);
    this.fileWatch.dispose();
    this.progress?.dispose();
    await this.mcp?.close();
  }

  dispose(): void {
    void this.close();
  }

  private readConfig(): McpConfig {
    return readMcpConfig(this.o.settings(), this.o.workspaceRoot());
  }

  private build(config: McpConfig): void {
    this.key = keyOf(config);
    this.mcp = createMcpManager({ config, workspaceRoot: this.o.workspaceRoot(), cacheDir: this.o.cacheDir, registry: this.o.registry, log: this.o.log, startTimeoutS: this.o.settings().settings['mcp.startTimeoutS'], secrets: this.o.secrets });
    this.progress = vscode.Disposable.from(showMcpStartProgress(this.mcp, this.o.log), notifyNeedsSignIn(this.mcp));
  }

  /** True when the list changed and the servers were replaced. */
  private rebuildIfChanged(why: string): boolean {
    const old = this.mcp;
    if (!old) return false;
    const config = this.readConfig();
    if (keyOf(config) === this.key) return false;
    this.o.log.info(`MCP: ${why}; the server list is read again`);
    this.progress?.dispose();
    this.mcp = undefined;
    void old.close().catch((e: Error) => this.o.log.warn(`MCP: stopping the old servers failed: ${e.message}`));
    this.build(config);
    return true;
  }

  private watchConfigFiles(): vscode.Disposable {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return new vscode.Disposable(() => undefined);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '{.mcp.json,.vscode/mcp.json}'));
    const changed = (uri: vscode.Uri) => {
      clearTimeout(this.settle);
      this.settle = setTimeout(() => this.rebuildIfChanged(`${path.relative(folder.uri.fsPath, uri.fsPath)} changed`), SETTLE_MS);
    };
    return vscode.Disposable.from(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed));
  }
}

/** What decides whether a new list needs new servers: each server's name, where it is defined, and its definition hash. */
function keyOf(config: McpConfig): string {
  return JSON.stringify(config.servers.map((d) => [d.name, d.source.label, d.hash]));
}
