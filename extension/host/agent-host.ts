import * as path from 'node:path';
import * as vscode from 'vscode';
import { Agent } from '../core/agent/agent';
import type { AgentEvent } from '../core/conversation/events';
import type { Session } from '../core/conversation/session';
import type { Logger } from '../core/log';
import { modelCapabilities } from '../core/model/capabilities';
import type { ModelClient } from '../core/model/types';
import type { LoadedSettings } from '../core/settings/load';
import type { Settings } from '../core/settings/schema';
import { closeAllBrowsers, closeBrowserSession } from '../core/browser';
import type { McpManager } from '../core/mcp';
import { McpLifecycle } from './mcp-lifecycle';
import { openStateDb, StateDbBusyError, type StateDb } from '../core/store';
import { createBuiltinTools } from '../core/tools/index';
import { ToolRegistry } from '../core/tools/registry';
import type { PastedImage } from '../core/input/compose';
import type { HostMessage } from '../protocol';
import { createEditorFileReader, createEditorFileWriter } from './editor-files';
import { watchEditProblems } from './edit-diagnostics';
import { watchForGuardInvalidation } from './guard-invalidation';
import { isApiKeySecret, resolveApiKey } from './api-key';
import { loadHostSettings } from './settings-source';
import { SessionCosts } from '../core/model/session-costs';
import { formatIssue } from '../core/settings/load';
import { broadRootWarning } from '../core/tools/policy/broad-root';
import { toTranscript } from './transcript';
import { meterMessage } from './meter-message';
import { availableModels, hostModelClient } from './model-list';
import { CheckpointStore } from '../core/checkpoints';
import { WebviewPrompts } from './webview-prompts';
import { EditSupport } from './edits';
import type { CompactionOutcome } from '../core/context/compaction/compactor';
import { CompactRefused } from './compact-command';


/**
 * The extension host's side of Snowpea: settings, the API key (SecretStorage), state.db in
 * global storage, one Agent for the window, the current session and its running turn.
 * Heavy parts (state.db, the agent) are created on first use, not at activation.
 */
export class AgentHost implements vscode.Disposable {
  readonly registry = new ToolRegistry(createBuiltinTools());
  private settings: Settings;
  private loaded?: LoadedSettings;
  private readonly mcp: McpLifecycle;
  private store?: Promise<StateDb>;
  private agent?: Agent;
  /** File checkpoints of the workspace folder (none in a window without one). */
  checkpoints?: CheckpointStore;
  private agentPromise?: Promise<Agent>;
  private session?: Session;
  private running?: AbortController;
  /** The session the running turn belongs to. */
  private runningSession?: Session;
  /** A compaction between turns (/compact, Compact Conversation) in progress, and when it has ended. */
  private compacting?: AbortController;
  private compactionEnded: Promise<void> = Promise.resolve();
  /** Settles when the running turn has ended (its last writes to state.db included). */
  private turnEnded: Promise<void> = Promise.resolve();
  private apiKey: string | undefined;
  /** Estimated cost per session, for the meter (rounds this window has seen). */
  private readonly costs = new SessionCosts();
  private lastPrompt?: { text: string; images: PastedImage[] };
  private partialText = '';
  private readonly disposables: vscode.Disposable[] = [];
  private readonly listeners = new Set<(msg: HostMessage) => void>();
  readonly prompts: WebviewPrompts;
  /** Diff review of proposed writes; Keep or Undo of the turn's auto-approved edits. */
  readonly edits: EditSupport;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Fires when the session, its loaded tools or the registry changed (the tools tree refreshes). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
  ) {
    this.mcp = new McpLifecycle({
      registry: this.registry,
      cacheDir: path.join(context.globalStorageUri.fsPath, 'mcp'),
      log,
      settings: () => this.loaded!,
      workspaceRoot: () => this.workspaceRoot,
    });
    this.settings = this.reloadSettings();
    this.edits = new EditSupport({ post: (m) => this.post(m), invalidate: (p) => this.agent?.guard.invalidatePath(p), warn: (m) => this.log.warn(m) });
    this.prompts = new WebviewPrompts((m) => this.post(m), this.edits.review);
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('snowpea') && (this.reloadSettings(), this.postHeader())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => (this.reloadSettings(), this.postHeader())),
      this.context.secrets.onDidChange((e) => isApiKeySecret(e.key) && void this.loadApiKey().then(() => this.postHeader())),
      this.changeEmitter,
      this.edits,
    );
  }

  get workspaceRoot(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  get trusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  currentSettings(): Settings {
    return this.settings;
  }

  currentSession(): Session | undefined {
    return this.session;
  }

  isRunning(): boolean {
    return !!this.running;
  }

  /** Why the conversation cannot be restored or rewound now (checkpoint-commands.ts); undefined when it can. */
  busyReason(): string | undefined {
    if (this.running) return 'A turn is running: stop it or wait for it to finish.';
    return this.compacting ? 'The conversation is being compacted: wait for it to finish.' : undefined;
  }

  /** The window's agent once started (a restore tells its repeat guard, a rewind goes through it). */
  startedAgent(): Agent | undefined {
    return this.agent;
  }

  private reloadSettings(): Settings {
    const loaded = loadHostSettings(this.workspaceRoot, this.trusted);
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

  /** The key for the current endpoint (api-key.ts); `ask` lets it confirm a workspace-chosen origin with the user. */
  async loadApiKey(ask = false): Promise<void> {
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

  /** No key for the default OpenAI endpoint: the chat shows a setup card instead of failing on send. */
  setupNeeded(): boolean {
    return this.settings['model.provider'] === 'openai-compatible' && !this.apiKey && /api\.openai\.com/.test(this.settings['model.baseUrl']);
  }

  /** Host -> webview messages; the chat view subscribes. */
  subscribe(listener: (msg: HostMessage) => void): vscode.Disposable {
    this.listeners.add(listener);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  private post(msg: HostMessage): void {
    for (const l of this.listeners) l(msg);
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
      if (db.notice) void vscode.window.showWarningMessage(`Snowpea: ${db.notice}`);
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

  private async createAgent(): Promise<Agent> {
    this.mcpManager();
    const store = await this.getStore();
    await this.loadApiKey();
    let client: ModelClient | undefined;
    let clientKey = '';
    const agent = new Agent({
      workspaceRoot: this.workspaceRoot ?? this.context.globalStorageUri.fsPath,
      settings: () => this.settings,
      client: () => {
        const key = JSON.stringify([this.settings['model.provider'], this.settings['model.baseUrl'], this.settings['model.name'], this.apiKey, this.settings['model.requestTimeoutS'], this.settings['model.maxRetries']]);
        if (!client || key !== clientKey) {
          client = hostModelClient(this.settings, this.apiKey, this.log);
          clientKey = key;
        }
        return client;
      },
      registry: this.registry,
      store,
      fileReader: createEditorFileReader(),
      fileWriter: this.edits.trackWrites(createEditorFileWriter()),
      watchProblems: watchEditProblems,
      approver: this.prompts,
      askUser: this.prompts.askUser,
      logger: this.log,
      scratchRoot: path.join(this.context.globalStorageUri.fsPath, 'scratch'),
      workspaceTrusted: () => this.trusted,
      apiKey: () => this.apiKey,
      startingTools: this.mcp.startingTools(),
      checkpoints: this.checkpointStore(),
    });
    const caps = modelCapabilities(this.settings['model.name'], this.settings);
    if (!caps.known) this.log.info(`model ${this.settings['model.name']} is not in the built-in table; assuming a ${caps.contextWindow}-token window`);
    this.disposables.push(watchForGuardInvalidation((p) => agent.guard.invalidatePath(p)), agent.onEvent((e) => this.onAgentEvent(e)));
    this.agent = agent;
    return agent;
  }

  /** Checkpoints before each message, in the extension's storage (beside state.db), never in the workspace. */
  private checkpointStore(): CheckpointStore | undefined {
    if (!this.workspaceRoot) return undefined;
    const dir = path.join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, 'checkpoints');
    const notice = (m: string) => void vscode.window.showWarningMessage(`Snowpea: ${m}`);
    this.checkpoints = new CheckpointStore({ workspaceRoot: this.workspaceRoot, dir, settings: () => this.settings, logger: this.log, onNotice: notice });
    return this.checkpoints;
  }

  private onAgentEvent(e: AgentEvent): void {
    if (e.sessionId !== this.session?.id) return;
    // Text of the round in flight is not in the stored transcript yet: keep it for a webview reload.
    // The round's text is in session.messages (and so in a replay) once its tool calls start.
    if (e.type === 'round.start' || e.type === 'tool.call' || e.type === 'turn.end') this.partialText = '';
    else if (e.type === 'text.delta') this.partialText += e.text;
    this.post({ type: 'event', event: e });
    if (e.type === 'usage' && this.agent && this.session) this.post(meterMessage(this.agent, this.session, e, this.settings, this.costs));
    if (e.type === 'tools.loaded' || e.type === 'turn.end') this.changeEmitter.fire();
    if (e.type === 'turn.start') this.edits.changes.turnStarted();
    if (e.type === 'turn.end') void this.edits.changes.turnEnded();
    // A new session is titled from its first prompt when its first turn starts.
    if (e.type === 'turn.start' && e.turn === 1) this.postHeader();
  }

  /** What the chat's header and notices show: the session's title, the model, trust and setup state. */
  private header(): Extract<HostMessage, { type: 'header' }> {
    const s = this.session;
    return {
      type: 'header',
      sessionId: s?.id ?? '',
      title: s?.title ?? 'New chat',
      model: this.settings['model.name'],
      workspaceTrusted: this.trusted,
      setupNeeded: this.setupNeeded(),
      supportsImages: modelCapabilities(this.settings['model.name'], this.settings).supportsImages,
    };
  }

  /** Settings, the API key, trust or the session's title changed: the chat's header follows. */
  private postHeader(): void {
    if (this.listeners.size) this.post(this.header());
  }

  /** The first message for a (re)loaded webview: session header, then the stored transcript. */
  async initMessages(): Promise<HostMessage[]> {
    await this.loadApiKey();
    const s = this.session;
    const { type: _type, ...header } = this.header();
    const init: HostMessage = { type: 'init', ...header, loadedTools: s?.loadedTools ?? [], running: this.isRunning() };
    const notices = this.trustNotices().map((text): HostMessage => ({ type: 'notice', text }));
    if (!s) return [init, ...notices];
    const replay: HostMessage[] = [init, { type: 'transcript', sessionId: s.id, entries: toTranscript(s.messages) }, ...notices];
    if (this.running && this.partialText) replay.push({ type: 'event', event: { type: 'text.delta', sessionId: s.id, text: this.partialText } });
    // Approvals and questions the turn is waiting on: without them a reloaded chat would wait forever.
    if (this.running) replay.push(...this.prompts.pendingMessages());
    replay.push(...(await this.edits.changes.messages()));
    return replay;
  }

  /** What the chat should say about the trust boundary: workspace settings that were ignored, a workspace at the home folder. */
  private trustNotices(): string[] {
    const ignored = (this.loaded?.ignored ?? []).map((i) => `Snowpea ignored ${formatIssue(i)}`);
    const broad = this.workspaceRoot ? broadRootWarning(this.workspaceRoot) : undefined;
    return [...ignored, ...(broad ? [`Careful: ${broad}`] : [])];
  }

  /** Provider error -> Retry: the last prompt again, as a new turn. */
  async retry(): Promise<void> {
    if (this.lastPrompt) await this.send(this.lastPrompt.text, this.lastPrompt.images);
  }

  async send(text: string, images: PastedImage[] = []): Promise<void> {
    // A message sent while the conversation is being compacted waits for it: the turn builds on the summary.
    if (this.compacting) await this.compactionEnded;
    if (this.running) {
      this.post({ type: 'error', message: 'A turn is already running; stop it first.' });
      return;
    }
    this.lastPrompt = { text, images };
    const controller = new AbortController();
    this.running = controller;
    let ended!: () => void;
    this.turnEnded = new Promise((resolve) => (ended = resolve));
    void vscode.commands.executeCommand('setContext', 'snowpea.turnRunning', true);
    let session: Session | undefined;
    try {
      const agent = await this.getAgent();
      if (!this.session) {
        // The webview knows no session yet (its init said ''): tell it the new one before any event.
        this.session = agent.newSession();
        for (const m of await this.initMessages()) this.post(m);
      }
      session = this.session;
      this.runningSession = session;
      this.changeEmitter.fire();
      await this.loadApiKey(true);
      const prompt = await agent.compose({ text, images }, controller.signal);
      for (const p of prompt.problems) this.post({ type: 'error', message: p });
      await agent.runTurn(session, prompt.content, controller.signal);
    } catch (e) {
      this.log.error(`turn failed: ${(e as Error).stack ?? e}`);
      this.post({ type: 'error', message: (e as Error).message });
    } finally {
      // A turn detached by stopTurn() leaves the state of the turn after it alone.
      if (this.running === controller) {
        this.running = undefined;
        this.runningSession = undefined;
        void vscode.commands.executeCommand('setContext', 'snowpea.turnRunning', false);
      }
      ended();
      // The chat moved on (New Chat, Resume) while this turn ran: its session can go now.
      if (session && session !== this.session) this.release(session);
    }
  }

  stop(): void {
    this.running?.abort();
  }

  /**
   * /compact and Snowpea: Compact Conversation: the model summarizes the current session now; its
   * `compaction` event reaches the chat as a turn's events do. Undefined when there is nothing to
   * compact yet. Refused (CompactRefused) while a turn runs or without a conversation; throws
   * ModelError('cancelled') when `controller` aborts (New Chat, Resume and Delete Session abort it
   * too). A message sent meanwhile waits for it.
   */
  async compact(focus: string | undefined, controller: AbortController): Promise<CompactionOutcome | undefined> {
    if (this.running) throw new CompactRefused('A turn is running: wait for the turn to finish or stop it, then compact.');
    if (this.compacting) throw new CompactRefused('The conversation is being compacted already.');
    const session = this.session;
    if (!session) throw new CompactRefused('There is no conversation to compact yet.');
    this.compacting = controller;
    let ended!: () => void;
    this.compactionEnded = new Promise((resolve) => (ended = resolve));
    try {
      const agent = await this.getAgent();
      await this.loadApiKey(true);
      return await agent.compact(session, focus, controller.signal);
    } finally {
      if (this.compacting === controller) this.compacting = undefined;
      ended();
    }
  }

  /** How long New Chat, Resume and Delete Session wait for a stopped turn to end. */
  private static readonly STOP_WAIT_MS = 5000;

  /**
   * Stops the running turn and waits for its end: its cancelled round stored and its turn.end
   * posted to the chat it belongs to, so the chat after it starts idle. A turn that has not ended
   * within `ms` is detached: it finishes unseen, and the next turn is not refused because of it.
   */
  private async stopTurn(ms = AgentHost.STOP_WAIT_MS): Promise<void> {
    this.compacting?.abort();
    const turn = this.running;
    if (!turn) return;
    turn.abort();
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      this.turnEnded.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
    clearTimeout(timer);
    if (ended || this.running !== turn) return;
    this.log.warn(`the stopped turn did not end within ${ms} ms; the chat goes on without it`);
    this.running = undefined;
    this.runningSession = undefined;
    void vscode.commands.executeCommand('setContext', 'snowpea.turnRunning', false);
  }

  /**
   * The chat left `old` (New Chat, Resume): what is kept in memory for it goes (the repeat guard's
   * reads, the prompt cache, project context, its browser). It is stored, so Resume opens it again.
   * A session whose turn still runs is released when that turn ends.
   */
  private release(old: Session | undefined): void {
    if (!old || old === this.session || old === this.runningSession) return;
    void closeBrowserSession(old.id);
    const agent = this.agent;
    if (!agent) return;
    agent.releaseSession(old.id);
  }

  /** Model ids the endpoint lists (GET /models), or the editor's language models, for Select Model. */
  async availableModels(): Promise<string[]> {
    if (this.settings['model.provider'] !== 'vscode-lm') await this.loadApiKey(true);
    return availableModels(this.settings, this.apiKey);
  }

  /** Stored sessions, newest first (the Resume Session picker). */
  async listSessions(): Promise<Array<{ id: string; title: string; updated: number; rounds: number }>> {
    return (await this.getStore()).listSessions();
  }

  /** Makes a stored session current; the next turn continues with its full transcript. */
  async resume(id: string): Promise<HostMessage[]> {
    await this.stopTurn();
    const agent = await this.getAgent();
    const session = agent.openSession(id);
    if (!session) throw new Error(`no stored session ${id}`);
    const old = this.session;
    this.session = session;
    this.release(old);
    this.changeEmitter.fire();
    return this.initMessages();
  }

  /**
   * Deletes a stored session with its delegated children and the attachment files only it held.
   * The current session is stopped first and replaced by a new chat, whose messages are returned.
   */
  async deleteSession(id: string): Promise<{ deleted: boolean; reset?: HostMessage[] }> {
    const current = this.session?.id === id;
    if (current) await this.stopTurn();
    const deleted = await (await this.getAgent()).deleteSession(id);
    return current ? { deleted, reset: await this.newChat() } : { deleted };
  }

  async exportSession(id: string, format: 'json' | 'md'): Promise<string> {
    return (await this.getStore()).exportSession(id, format);
  }

  /** Starts over: a running turn is stopped and awaited first, so the new chat starts idle. */
  async newChat(): Promise<HostMessage[]> {
    await this.stopTurn();
    const old = this.session;
    this.session = undefined;
    this.release(old);
    this.changeEmitter.fire();
    return this.initMessages();
  }

  async dispose(): Promise<void> {
    this.stop();
    this.compacting?.abort();
    // The stopped turn stores its round (cancelled results) before the store closes; at most 2 s.
    await Promise.race([this.turnEnded, new Promise<void>((r) => setTimeout(r, 2000).unref())]);
    for (const d of this.disposables) d.dispose();
    this.agent?.dispose();
    await Promise.all([this.store ? (await this.store).close() : undefined, this.mcp.close(), closeAllBrowsers()]);
  }
}
