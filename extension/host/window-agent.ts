import * as path from 'node:path';
import type * as vscode from 'vscode';
import { Agent } from '../core/agent/agent';
import { closeBrowserOnRelease } from '../core/browser';
import { CheckpointStore, WorkspaceCheckpoints, workspaceCoordinationDir, type RestoreSeam } from '../core/checkpoints';
import type { Logger } from '../core/log';
import { modelCapabilities } from '../core/model/capabilities';
import type { ModelClient } from '../core/model/types';
import type { Settings } from '../core/settings/schema';
import { openStateDb, StateDbBusyError, type StateDb } from '../core/store';
import { ApprovalMemory } from '../core/tools/policy/memory';
import type { ToolRegistry } from '../core/tools/registry';
import { workspaceRootsOf } from '../core/tools/roots';
import type { WebviewPrompts } from './chat/webview-prompts';
import { showWarning } from './dialogs';
import type { EditSupport } from './edits';
import type { EditDiagnostics } from './edits/edit-diagnostics';
import type { McpLifecycle } from './mcp/mcp-lifecycle';
import { commandRuleSaver } from './settings/command-rule-saver';
import type { WindowSettings } from './settings/window-settings';
import { createEditorFileReader, createEditorFileWriter } from './workspace/editor-files';
import { watchForGuardInvalidation } from './workspace/guard-invalidation';
import { workspaceProblems } from './workspace/problems-source';
import type { TerminalRecorder } from './workspace/terminal-output';

/**
 * The window's one Agent and what it stands on: state.db in the extension's storage, the file
 * checkpoints, the model client. Each is made on first use, not at activation (AgentHost asks).
 */
export class WindowAgent {
  private store?: Promise<StateDb>;
  private agent?: Agent;
  private agentPromise?: Promise<Agent>;
  /** File checkpoints of the workspace folders (none in a window without one; one store per folder in a multi-root workspace). */
  checkpoints?: RestoreSeam;
  /** The model client, made again when the provider, endpoint, model, key or limits change. */
  private clientCache?: { key: string; client: ModelClient };

  constructor(
    private readonly o: {
      context: vscode.ExtensionContext;
      log: Logger;
      workspaceRoot: () => string | undefined;
      trusted: () => boolean;
      /** The settings as loaded, their provider and its key. */
      config: Pick<WindowSettings, 'settings' | 'provider' | 'loadApiKey' | 'apiKey'>;
      /** The settings the chat's requests use (with the composer's model choice). */
      currentSettings: () => Settings;
      registry: ToolRegistry;
      mcp: McpLifecycle;
      edits: Pick<EditSupport, 'trackWrites'>;
      editDiagnostics: EditDiagnostics;
      prompts: WebviewPrompts;
      terminals: TerminalRecorder;
      /** Disposed with the host (the agent's repeat-guard watcher). */
      track: (d: vscode.Disposable) => void;
    },
  ) {}

  /** The agent once started. */
  get started(): Agent | undefined {
    return this.agent;
  }

  /** state.db once asked for (it is then opening or open). */
  get openedStore(): Promise<StateDb> | undefined {
    return this.store;
  }

  getStore(): Promise<StateDb> {
    this.store ??= (async () => {
      // Sessions belong to the workspace (like the editor's own chat history); one window per
      // workspace, so the file's lock is normally free. Windows without a folder share global
      // storage: when another window holds it, this window uses a file of its own.
      const dir = (this.o.context.storageUri ?? this.o.context.globalStorageUri).fsPath;
      let db: StateDb;
      try {
        db = await openStateDb({ file: path.join(dir, 'state.db'), log: this.o.log });
      } catch (e) {
        if (!(e instanceof StateDbBusyError)) throw e;
        const file = path.join(dir, `state-window-${process.pid}.db`);
        this.o.log.warn(`state.db is in use by another window; this window keeps its sessions in ${file}`);
        db = await openStateDb({ file, log: this.o.log });
      }
      if (db.notice) void showWarning(`Snowpea: ${db.notice}`);
      return db;
    })();
    return this.store;
  }

  /** The window's agent, created once (concurrent first calls share the creation). */
  getAgent(): Promise<Agent> {
    this.agentPromise ??= this.createAgent().catch((e: unknown) => {
      this.agentPromise = undefined; // a failed start is tried again next time
      throw e;
    });
    return this.agentPromise;
  }

  /** Starts the agent unless it runs (see AgentHost.ensureAgentTools); a failed start is logged, not thrown. */
  async ensureStarted(): Promise<void> {
    if (this.agent) return;
    try {
      await this.getAgent();
    } catch (e) {
      this.o.log.warn(`the agent could not start, so tool_search and delegate_task are not listed yet: ${(e as Error).message}`);
    }
  }

  private client(): ModelClient {
    const s = this.o.currentSettings();
    const apiKey = this.o.config.apiKey;
    const key = JSON.stringify([s['model.provider'], s['model.baseUrl'], s['model.name'], apiKey, s['model.requestTimeoutS'], s['model.maxRetries'], s['model.thinkingBudgetTokens'], s['model.reasoningEffort']]);
    if (this.clientCache?.key !== key) this.clientCache = { key, client: this.o.config.provider().createClient(s, apiKey, this.o.log) };
    return this.clientCache.client;
  }

  private async createAgent(): Promise<Agent> {
    const { context, log, prompts } = this.o;
    this.o.mcp.manager();
    const store = await this.getStore();
    await this.o.config.loadApiKey();
    const agent = new Agent({
      workspaceRoot: this.o.workspaceRoot() ?? context.globalStorageUri.fsPath,
      settings: () => this.o.currentSettings(),
      client: () => this.client(),
      registry: this.o.registry,
      store,
      fileReader: createEditorFileReader(),
      fileWriter: this.o.edits.trackWrites(createEditorFileWriter()),
      watchProblems: (absPath, signal) => this.o.editDiagnostics.watch(absPath, signal),
      approver: prompts,
      approvals: new ApprovalMemory(false, 'user', commandRuleSaver(() => this.o.currentSettings(), log)),
      askUser: prompts.askUser,
      askBudget: prompts,
      logger: log,
      scratchRoot: path.join(context.globalStorageUri.fsPath, 'scratch'),
      workspaceTrusted: () => this.o.trusted(),
      apiKey: () => this.o.config.apiKey,
      startingTools: this.o.mcp.startingTools(),
      checkpoints: this.checkpointStore(),
      mentionSources: { problems: workspaceProblems, terminal: () => this.o.terminals.capture() },
      onSessionReleased: closeBrowserOnRelease(log),
    });
    const settings = this.o.config.settings;
    const caps = modelCapabilities(settings['model.name'], settings);
    if (!caps.known) log.info(`model ${settings['model.name']} is not in the built-in table; assuming a ${caps.contextWindow}-token window`);
    this.o.track(watchForGuardInvalidation((p) => agent.invalidatePath(p)));
    this.agent = agent;
    return agent;
  }

  /** Checkpoints before each message, in the extension's storage (beside state.db), never in the workspace. */
  private checkpointStore(): RestoreSeam | undefined {
    const { context, log } = this.o;
    const workspaceRoot = this.o.workspaceRoot();
    if (!workspaceRoot) return undefined;
    const dir = path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'checkpoints');
    const notice = (m: string) => void showWarning(`Snowpea: ${m}`);
    // The writer lock and restore journal are shared with the CLI (one writer per workspace); an interrupted restore is finished or rolled back now, and said.
    const storeOf = (root: string) => new CheckpointStore({ workspaceRoot: root, dir, settings: () => this.o.config.settings, logger: log, onNotice: notice, coordinationDir: workspaceCoordinationDir() });
    const roots = workspaceRootsOf(workspaceRoot);
    // A multi-root workspace: one store per folder (a folder whose name another took has no `name/` paths: left out, and said).
    for (const r of roots) if (roots.length > 1 && r.name === undefined) log.warn(`no checkpoints for ${r.path}: another workspace folder has the same name`);
    this.checkpoints = roots.length > 1 ? new WorkspaceCheckpoints(roots.flatMap((r) => (r.name === undefined ? [] : [{ name: r.name, store: storeOf(r.path) }]))) : storeOf(workspaceRoot);
    try {
      this.checkpoints.recoverInterrupted();
    } catch (e) {
      log.warn(`could not look for an interrupted restore: ${(e as Error).message}`);
    }
    return this.checkpoints;
  }
}
