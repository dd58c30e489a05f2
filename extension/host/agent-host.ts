import { secretStore } from './mcp/mcp-oauth';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Agent } from '../core/agent/agent';
import type { AgentEvent } from '../core/conversation/events';
import type { Session } from '../core/conversation/session';
import { Emitter } from '../core/conversation/emitter';
import { ChatController } from '../core/chat/controller';
import type { Logger } from '../core/log';
import { modelCapabilities } from '../core/model/capabilities';
import type { ModelClient } from '../core/model/types';
import type { LoadedSettings } from '../core/settings/load';
import type { Settings } from '../core/settings/schema';
import { closeAllBrowsers, closeBrowserSession } from '../core/browser';
import { coreProviders, type ModelProvider } from '../core/model/providers';
import type { McpManager } from '../core/mcp';
import { McpLifecycle } from './mcp/mcp-lifecycle';
import { openStateDb, StateDbBusyError, type StateDb } from '../core/store';
import { createBuiltinTools } from '../core/tools/index';
import { ToolRegistry } from '../core/tools/registry';
import type { Delivery, HostMessage, OutgoingImage } from '../protocol';
import { createEditorFileReader, createEditorFileWriter } from './workspace/editor-files';
import { EditDiagnostics } from './edits/edit-diagnostics';
import { watchForGuardInvalidation } from './workspace/guard-invalidation';
import { isApiKeySecret, resolveApiKey } from './settings/api-key';
import { loadHostSettings } from './settings/settings-source';
import { confirmWorkspaceEndpoint } from './settings/workspace-endpoint';
import { formatIssue, workspaceSpendNotice } from '../core/settings/load';
import { broadRootWarning } from '../core/tools/policy/broad-root';
import { toTranscript } from './chat/transcript';
import { vscodeLmProvider } from './lm/lm-provider';
import { CheckpointStore, WorkspaceCheckpoints, workspaceCoordinationDir, type RestoreSeam } from '../core/checkpoints';
import { workspaceRootsOf } from '../core/tools/roots';
import { trackWorkspaceRoots } from './workspace/workspace-roots';
import { WebviewPrompts } from './chat/webview-prompts';
import { EditSupport } from './edits';
import type { CompactionOutcome } from '../core/context/compaction/compactor';
import { showWarning } from './dialogs';
import { effortInfo, withModelChoice, type ModelChoice } from '../core/model/model-choice';
import { MAX_LISTED_MODELS } from '../protocol';
import { workspaceProblems } from './workspace/problems-source';
import { TerminalRecorder, type TerminalWindow } from './workspace/terminal-output';
import { TurnNotifier } from './chat/turn-notifier';
import { queueMessage, workspaceQueueStore } from './chat/queue-store';
import { LibraryHost } from './library-host';

/**
 * The extension host's side of Snowpea: settings, the API key (SecretStorage), state.db in
 * global storage, one Agent for the window, and what the chat view is sent. The chat's lifecycle
 * (the current session, its running turn, compaction) is the ChatController's (core/chat); this
 * adapter wires it to VS Code: contexts, storage paths, configuration, vscode.lm.
 * Heavy parts (state.db, the agent) are created on first use, not at activation.
 */
export class AgentHost implements vscode.Disposable {
  readonly registry = new ToolRegistry(createBuiltinTools(), { onListenerError: (e) => this.log.error(`a tool registry listener failed: ${String(e)}`) });
  /** Where models come from: the core's providers and the editor's own (vscode-lm). */
  private readonly providers = coreProviders();
  private settings: Settings;
  private loaded?: LoadedSettings;
  private readonly mcp: McpLifecycle;
  private store?: Promise<StateDb>;
  private agent?: Agent;
  /** File checkpoints of the workspace folders (none in a window without one; one store per folder in a multi-root workspace). */
  checkpoints?: RestoreSeam;
  private agentPromise?: Promise<Agent>;
  private readonly chat: ChatController;
  private apiKey: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Host -> webview messages; a listener that throws is logged. */
  private readonly messages = new Emitter<HostMessage>({ onListenerError: (e) => this.log.error(`a chat view listener failed: ${String(e)}`) });
  readonly prompts: WebviewPrompts;
  /** Tells a user who looks elsewhere that a turn ended or waits for them. */
  private readonly notifier: TurnNotifier;
  /** Diff review of proposed writes; Keep or Undo of the turn's auto-approved edits. */
  readonly edits: EditSupport;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Waits for the diagnostics around an edit (and tracks which languages have any) for the whole window. */
  private readonly editDiagnostics: EditDiagnostics;
  /** Fires when the session, its loaded tools or the registry changed (the tools tree refreshes). */
  readonly onDidChange = this.changeEmitter.event;
  /** Each terminal's latest command output, for `@terminal` (recorded from activation on: a command's output can be read only from its start). */
  private readonly terminals = new TerminalRecorder(vscode.window as unknown as TerminalWindow);
  /** The last settings with the chat's model choice applied (the same object while neither changes). */
  private effectiveCache?: { settings: Settings; choice: ModelChoice; effective: Settings };
  /** Slash commands, custom agents, skills and instruction files (the slash menu, the Tools tree). */
  readonly library: LibraryHost;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
  ) {
    this.disposables.push(this.providers.register('vscode-lm', vscodeLmProvider));
    // Every folder of a multi-root workspace is a root for tools, instruction files, skills and the @ index.
    this.disposables.push(trackWorkspaceRoots());
    this.library = new LibraryHost(this.workspaceRoot, log);
    // A prompt file added, edited or deleted (or trust granted): the slash menu and the Tools tree follow.
    this.disposables.push(this.library, this.library.onDidChange(() => (this.post(this.library.commandsMessage()), this.changeEmitter.fire())));
    this.mcp = new McpLifecycle({
      registry: this.registry,
      cacheDir: path.join(context.globalStorageUri.fsPath, 'mcp'),
      log,
      settings: () => this.loaded!,
      workspaceRoot: () => this.workspaceRoot,
      secrets: secretStore(context.secrets),
    });
    this.settings = this.reloadSettings();
    this.editDiagnostics = new EditDiagnostics(log);
    this.disposables.push(this.editDiagnostics);
    this.edits = new EditSupport({ post: (m) => this.post(m), invalidate: (p) => this.agent?.invalidatePath(p), warn: (m) => this.log.warn(m) });
    this.notifier = new TurnNotifier({
      enabled: () => this.settings['chat.notifyWhenUnfocused'],
      title: () => this.chat.session?.title ?? 'New chat',
      showChat: () => void vscode.commands.executeCommand('snowpea.focusChat'),
    });
    this.prompts = new WebviewPrompts((m) => this.post(m), this.edits.review, (m) => this.notifier.waiting(m));
    this.chat = new ChatController({
      agent: () => this.getAgent(),
      logger: log,
      delivery: () => this.settings['chat.messagesDuringTurn'],
      queueStore: workspaceQueueStore(context.workspaceState, log),
      hooks: {
        event: (e) => this.onChatEvent(e),
        error: (message) => this.post({ type: 'error', message }),
        sessionStarted: async () => {
          for (const m of await this.initMessages()) this.post(m);
        },
        runningChanged: (running) => void vscode.commands.executeCommand('setContext', 'snowpea.turnRunning', running),
        sessionChanged: () => this.changeEmitter.fire(),
        beforeRequest: () => this.loadApiKey(true),
        released: (id) => void closeBrowserSession(id),
        queueChanged: () => this.post(this.queueMessage()),
        idle: (reason) => this.notifier.turnEnded(reason),
      },
    });
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('snowpea') && (this.reloadSettings(), this.postHeader(), this.postQueue())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => (this.reloadSettings(), this.postHeader())),
      this.context.secrets.onDidChange((e) => isApiKeySecret(e.key) && void this.loadApiKey().then(() => this.postHeader())),
      this.changeEmitter,
      this.edits,
      this.terminals,
    );
  }

  get workspaceRoot(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  get trusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  /** The settings the chat's requests use: the user's and workspace's, with the model and effort picked in the composer for the current session. */
  currentSettings(): Settings {
    // Before the chat exists (the constructor's first settings load), the settings as loaded.
    const choice = (this.chat as ChatController | undefined)?.modelChoice;
    if (!choice) return this.settings;
    const hit = this.effectiveCache;
    if (hit?.settings === this.settings && hit.choice === choice) return hit.effective;
    const effective = withModelChoice(this.settings, choice);
    this.effectiveCache = { settings: this.settings, choice, effective };
    return effective;
  }

  /** The model.name setting, without the composer's pick. */
  configuredModel(): string {
    return this.settings['model.name'];
  }

  /**
   * The composer's model picker and effort control: the current session's model (or effort) for its
   * next request, stored with the session in state.db (a new chat starts with the last one picked;
   * no settings file is written). `model: null` goes back to model.name.
   */
  async pickModel(pick: { model?: string | null; effort?: ModelChoice['effort'] | null }): Promise<void> {
    const next: ModelChoice = { ...this.chat.modelChoice };
    if (pick.model !== undefined) {
      if (pick.model === null || pick.model === this.settings['model.name']) delete next.model;
      else next.model = pick.model;
    }
    if (pick.effort !== undefined) {
      if (pick.effort === null) delete next.effort;
      else next.effort = pick.effort;
    }
    await this.chat.setModelChoice(next);
    this.postHeader();
  }

  /** The picker's list: the provider's models (its /models, or the editor's language models), or why there are none. */
  async pickerModels(): Promise<Extract<HostMessage, { type: 'models.result' }>> {
    try {
      const models = await this.availableModels();
      return { type: 'models.result', models: models.slice(0, MAX_LISTED_MODELS) };
    } catch (e) {
      this.log.warn(`could not list the models for the picker: ${(e as Error).message}`);
      return { type: 'models.result', models: [], error: `The provider did not list its models (${(e as Error).message.slice(0, 500)}); type a model name instead.` };
    }
  }

  currentSession(): Session | undefined {
    return this.chat.session;
  }

  isRunning(): boolean {
    return this.chat.isRunning();
  }

  /** Why the conversation cannot be restored or rewound now (checkpoint-commands.ts); undefined when it can. */
  busyReason(): string | undefined {
    return this.chat.busyReason();
  }

  /** The window's agent once started (a restore tells its repeat guard, a rewind goes through it). */
  startedAgent(): Agent | undefined {
    return this.agent;
  }

  private reloadSettings(): Settings {
    const loaded = loadHostSettings(this.workspaceRoot, this.trusted, { withoutWorkspaceEndpoint: this.endpointDeclined });
    for (const m of loaded.messages) this.log.warn(m);
    this.loaded = loaded;
    this.settings = loaded.settings;
    this.mcp.settingsChanged();
    void this.loadApiKey().then(() => this.postHeader());
    return this.settings;
  }

  /** MCP servers of this window, attached to the registry on first use (cached tool lists show at once). */
  mcpManager(): McpManager {
    return this.mcp.manager();
  }

  existingMcpManager(): McpManager | undefined {
    return this.mcp.existing();
  }

  /** The user declined the model endpoint this workspace's settings chose: its endpoint keys are left out until the window reloads. */
  private endpointDeclined = false;

  /** The key for the current endpoint (api-key.ts); `ask` lets it confirm a workspace-chosen origin with the user. */
  async loadApiKey(ask = false): Promise<void> {
    // Before a request: a model endpoint the workspace chose is used only once the user said so (workspace-endpoint.ts).
    if (ask && !this.endpointDeclined && (await confirmWorkspaceEndpoint(this.context, this.loaded!, true)) === 'declined') {
      this.endpointDeclined = true;
      this.reloadSettings();
      this.post({ type: 'notice', text: `Snowpea uses your own model endpoint (${this.settings['model.baseUrl']}): you declined the one this workspace's settings chose. Reload the window to be asked again.` });
    }
    this.apiKey = await resolveApiKey(this.context, this.loaded!, ask);
  }

  /**
   * The agent registers tool_search and delegate_task: lists of every tool (the Tools tree, Show
   * Tools (JSON)) call this first. It opens state.db, as the first chat would.
   */
  async ensureAgentTools(): Promise<void> {
    if (this.agent) return;
    try {
      await this.getAgent();
    } catch (e) {
      this.log.warn(`the agent could not start, so tool_search and delegate_task are not listed yet: ${(e as Error).message}`);
    }
  }

  /** The provider model.provider names. */
  private provider(): ModelProvider {
    return this.providers.get(this.settings['model.provider']);
  }

  /** The provider needs a key and has none (the default OpenAI endpoint): the chat shows a setup card instead of failing on send. */
  setupNeeded(): boolean {
    return this.provider().setup(this.settings, this.apiKey).needsKey;
  }

  /** Host -> webview messages; the chat view subscribes. */
  subscribe(listener: (msg: HostMessage) => void): vscode.Disposable {
    const sub = this.messages.event(listener);
    return new vscode.Disposable(() => sub.dispose());
  }

  private post(msg: HostMessage): void {
    this.messages.fire(msg);
  }

  private async getStore(): Promise<StateDb> {
    this.store ??= (async () => {
      // Sessions belong to the workspace (like the editor's own chat history); one window per
      // workspace, so the file's lock is normally free. Windows without a folder share global
      // storage: when another window holds it, this window uses a file of its own.
      const dir = (this.context.storageUri ?? this.context.globalStorageUri).fsPath;
      let db: StateDb;
      try {
        db = await openStateDb({ file: path.join(dir, 'state.db'), log: this.log });
      } catch (e) {
        if (!(e instanceof StateDbBusyError)) throw e;
        const file = path.join(dir, `state-window-${process.pid}.db`);
        this.log.warn(`state.db is in use by another window; this window keeps its sessions in ${file}`);
        db = await openStateDb({ file, log: this.log });
      }
      if (db.notice) void showWarning(`Snowpea: ${db.notice}`);
      return db;
    })();
    return this.store;
  }

  /** The window's agent, created once (concurrent first calls share the creation). */
  private getAgent(): Promise<Agent> {
    this.agentPromise ??= this.createAgent().catch((e: unknown) => {
      this.agentPromise = undefined; // a failed start is tried again next time
      throw e;
    });
    return this.agentPromise;
  }

  /** The model client, made again when the provider, endpoint, model, key or limits change. */
  private clientCache?: { key: string; client: ModelClient };

  private client(): ModelClient {
    const s = this.currentSettings();
    const key = JSON.stringify([s['model.provider'], s['model.baseUrl'], s['model.name'], this.apiKey, s['model.requestTimeoutS'], s['model.maxRetries'], s['model.thinkingBudgetTokens'], s['model.reasoningEffort']]);
    if (this.clientCache?.key !== key) this.clientCache = { key, client: this.provider().createClient(s, this.apiKey, this.log) };
    return this.clientCache.client;
  }

  private async createAgent(): Promise<Agent> {
    this.mcpManager();
    const store = await this.getStore();
    await this.loadApiKey();
    const agent = new Agent({
      workspaceRoot: this.workspaceRoot ?? this.context.globalStorageUri.fsPath,
      settings: () => this.currentSettings(),
      client: () => this.client(),
      registry: this.registry,
      store,
      fileReader: createEditorFileReader(),
      fileWriter: this.edits.trackWrites(createEditorFileWriter()),
      watchProblems: (absPath, signal) => this.editDiagnostics.watch(absPath, signal),
      approver: this.prompts,
      askUser: this.prompts.askUser,
      askBudget: this.prompts,
      logger: this.log,
      scratchRoot: path.join(this.context.globalStorageUri.fsPath, 'scratch'),
      workspaceTrusted: () => this.trusted,
      apiKey: () => this.apiKey,
      startingTools: this.mcp.startingTools(),
      checkpoints: this.checkpointStore(),
      mentionSources: { problems: workspaceProblems, terminal: () => this.terminals.capture() },
    });
    const caps = modelCapabilities(this.settings['model.name'], this.settings);
    if (!caps.known) this.log.info(`model ${this.settings['model.name']} is not in the built-in table; assuming a ${caps.contextWindow}-token window`);
    this.disposables.push(watchForGuardInvalidation((p) => agent.invalidatePath(p)));
    this.agent = agent;
    return agent;
  }

  /** Checkpoints before each message, in the extension's storage (beside state.db), never in the workspace. */
  private checkpointStore(): RestoreSeam | undefined {
    if (!this.workspaceRoot) return undefined;
    const dir = path.join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, 'checkpoints');
    const notice = (m: string) => void showWarning(`Snowpea: ${m}`);
    // The writer lock and restore journal are shared with the CLI (one writer per workspace); an interrupted restore is finished or rolled back now, and said.
    const storeOf = (root: string) => new CheckpointStore({ workspaceRoot: root, dir, settings: () => this.settings, logger: this.log, onNotice: notice, coordinationDir: workspaceCoordinationDir() });
    const roots = workspaceRootsOf(this.workspaceRoot);
    // A multi-root workspace: one store per folder (a folder whose name another took has no `name/` paths: left out, and said).
    for (const r of roots) if (roots.length > 1 && r.name === undefined) this.log.warn(`no checkpoints for ${r.path}: another workspace folder has the same name`);
    this.checkpoints = roots.length > 1 ? new WorkspaceCheckpoints(roots.flatMap((r) => (r.name === undefined ? [] : [{ name: r.name, store: storeOf(r.path) }]))) : storeOf(this.workspaceRoot);
    try {
      this.checkpoints.recoverInterrupted();
    } catch (e) {
      this.log.warn(`could not look for an interrupted restore: ${(e as Error).message}`);
    }
    return this.checkpoints;
  }

  /** An event of the chat's current session: to the webview (the meter as its own message), and what follows from it here. */
  private onChatEvent(e: AgentEvent): void {
    if (e.type === 'meter') return this.post(e);
    this.post({ type: 'event', event: e });
    if (e.type === 'tools.loaded' || e.type === 'turn.end' || e.type === 'mode') this.changeEmitter.fire();
    if (e.type === 'turn.start') this.edits.changes.turnStarted();
    if (e.type === 'turn.end') void this.edits.changes.turnEnded();
    // A new session is titled from its first prompt when its first turn starts.
    if (e.type === 'turn.start' && e.turn === 1) this.postHeader();
  }

  /** What the chat's header and notices show: the session's title, the model, trust and setup state. */
  private header(): Extract<HostMessage, { type: 'header' }> {
    const s = this.chat.session;
    const effective = this.currentSettings();
    const effort = effortInfo(this.settings, this.chat.modelChoice);
    return {
      type: 'header',
      sessionId: s?.id ?? '',
      title: s?.title ?? 'New chat',
      model: effective['model.name'],
      workspaceTrusted: this.trusted,
      setupNeeded: this.setupNeeded(),
      supportsImages: modelCapabilities(effective['model.name'], effective).supportsImages,
      mode: this.chat.mode,
      defaultModel: this.settings['model.name'],
      ...(effort ? { effort } : {}),
    };
  }

  /** Settings, the API key, trust or the session's title changed: the chat's header follows. */
  private postHeader(): void {
    if (this.messages.listenerCount) this.post(this.header());
  }

  /** The current session's waiting messages as the chat shows them. */
  private queueMessage(): HostMessage {
    return queueMessage(this.chat.queue(), this.chat.session?.id ?? '', this.settings['chat.messagesDuringTurn']);
  }

  private postQueue(): void {
    if (this.messages.listenerCount) this.post(this.queueMessage());
  }

  /** The first message for a (re)loaded webview: session header, then the stored transcript. */
  async initMessages(): Promise<HostMessage[]> {
    await this.loadApiKey();
    const s = this.chat.session;
    const running = this.chat.isRunning();
    const { type: _type, ...header } = this.header();
    const init: HostMessage = { type: 'init', ...header, loadedTools: s?.loadedTools ?? [], running, todos: s?.todos ?? [] };
    const notices = this.trustNotices().map((text): HostMessage => ({ type: 'notice', text }));
    const commands = this.library.commandsMessage();
    if (!s) return [init, commands, this.queueMessage(), ...notices];
    const replay: HostMessage[] = [init, commands, { type: 'transcript', sessionId: s.id, entries: toTranscript(s.messages) }, this.queueMessage(), ...notices];
    const inFlight = this.chat.inFlightText();
    if (inFlight) replay.push({ type: 'event', event: { type: 'text.delta', sessionId: s.id, text: inFlight } });
    // Approvals and questions the turn is waiting on: without them a reloaded chat would wait forever.
    if (running) replay.push(...this.prompts.pendingMessages());
    replay.push(...(await this.edits.changes.messages()));
    return replay;
  }

  /** What the chat should say about the trust boundary: workspace settings that were ignored, a workspace at the home folder. */
  private trustNotices(): string[] {
    const ignored = (this.loaded?.ignored ?? []).map((i) => `Snowpea ignored ${formatIssue(i)}`);
    const broad = this.workspaceRoot ? broadRootWarning(this.workspaceRoot) : undefined;
    const spend = this.loaded ? workspaceSpendNotice(this.loaded) : undefined;
    return [...ignored, ...(broad ? [`Careful: ${broad}`] : []), ...(spend ? [`Note: ${spend}`] : [])];
  }

  /** Provider error -> Retry: the last prompt again, as a new turn. */
  retry(): Promise<void> {
    return this.chat.retry();
  }

  /** The composer's Send: a turn now, or (a turn runs) a message waiting for the turn's next step or end (`delivery`, default: the setting). */
  send(text: string, images: OutgoingImage[] = [], delivery?: Delivery): Promise<void> {
    return this.chat.send({ text, images }, delivery ? { delivery } : {});
  }

  /** A waiting message's controls above the composer (ChatController's queue). */
  editQueued(id: string, text: string): void {
    this.chat.editQueued(id, text);
  }

  removeQueued(id: string): void {
    this.chat.removeQueued(id);
  }

  setQueuedDelivery(id: string, delivery: Delivery): void {
    this.chat.setQueuedDelivery(id, delivery);
  }

  sendQueuedNow(id: string): Promise<void> {
    return this.chat.sendQueuedNow(id);
  }

  stop(): void {
    this.chat.stop();
  }

  /** The composer's plan toggle, `/plan`, `/act`: the session's mode (a `mode` event), or the next new session's (the header says it). */
  async setMode(mode: 'code' | 'plan'): Promise<void> {
    await this.chat.setMode(mode);
    this.postHeader();
  }

  /** "Approve plan": act mode, then the model carries the plan out (a new turn). */
  approvePlan(): Promise<void> {
    return this.chat.approvePlan();
  }

  /** /compact and Snowpea: Compact Conversation (compact-command.ts): see ChatController.compact. */
  compact(focus: string | undefined, controller: AbortController): Promise<CompactionOutcome | undefined> {
    return this.chat.compact(focus, controller);
  }

  /** Model ids the provider lists (GET /models, or the editor's language models), for Select Model. */
  async availableModels(): Promise<string[]> {
    const provider = this.provider();
    if (provider.usesApiKey) await this.loadApiKey(true);
    return provider.listModels(this.settings, this.apiKey);
  }

  /** Stored sessions, newest first (the Resume Session picker). */
  async listSessions(): Promise<Array<{ id: string; title: string; updated: number; rounds: number }>> {
    return (await this.getStore()).listSessions();
  }

  /** Makes a stored session current; the next turn continues with its full transcript. */
  async resume(id: string): Promise<HostMessage[]> {
    await this.chat.resume(id);
    return this.initMessages();
  }

  /**
   * Deletes a stored session with its delegated children and the attachment files only it held.
   * The current session is stopped first and replaced by a new chat, whose messages are returned.
   */
  async deleteSession(id: string): Promise<{ deleted: boolean; reset?: HostMessage[] }> {
    const { deleted, wasCurrent } = await this.chat.deleteSession(id);
    return wasCurrent ? { deleted, reset: await this.initMessages() } : { deleted };
  }

  async exportSession(id: string, format: 'json' | 'md'): Promise<string> {
    return (await this.getStore()).exportSession(id, format);
  }

  /** Starts over: a running turn is stopped and awaited first, so the new chat starts idle. */
  async newChat(): Promise<HostMessage[]> {
    await this.chat.newChat();
    return this.initMessages();
  }

  async dispose(): Promise<void> {
    // The stopped turn stores its round (cancelled results) before the store closes; at most 2 s.
    await this.chat.close();
    for (const d of this.disposables) d.dispose();
    this.messages.dispose();
    this.agent?.dispose();
    await Promise.all([this.store ? (await this.store).close() : undefined, this.mcp.close(), closeAllBrowsers()]);
  }
}
