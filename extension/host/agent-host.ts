import { secretStore } from './mcp/mcp-oauth';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../core/conversation/events';
import type { Session } from '../core/conversation/session';
import { Emitter } from '../core/conversation/emitter';
import { ChatController } from '../core/chat/controller';
import type { Logger } from '../core/log';
import { modelCapabilities } from '../core/model/capabilities';
import type { Settings } from '../core/settings/schema';
import { closeAllBrowsers } from '../core/browser';
import type { McpManager } from '../core/mcp';
import { McpLifecycle } from './mcp/mcp-lifecycle';
import { coreProviders } from '../core/model/providers';
import { isApiKeySecret } from './settings/api-key';
import { WindowSettings } from './settings/window-settings';
import { createBuiltinTools } from '../core/tools/index';
import { ToolRegistry } from '../core/tools/registry';
import type { Delivery, HostMessage, OutgoingImage } from '../protocol';
import { EditDiagnostics } from './edits/edit-diagnostics';
import { toTranscript } from './chat/transcript';
import { vscodeLmProvider } from './lm/lm-provider';
import { trackWorkspaceRoots } from './workspace/workspace-roots';
import { WebviewPrompts } from './chat/webview-prompts';
import { EditSupport } from './edits';
import type { CompactionOutcome } from '../core/context/compaction/compactor';
import { TerminalRecorder, type TerminalWindow } from './workspace/terminal-output';
import type { Agent } from '../core/agent/agent';
import type { RestoreSeam } from '../core/checkpoints';
import type { ModelChoice } from '../core/model/model-choice';
import { ModelPicker } from './chat/model-picker';
import { WindowAgent } from './window-agent';
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
  /** The settings as loaded, their model provider and its API key. */
  private readonly config: WindowSettings;
  private readonly mcp: McpLifecycle;
  /** state.db, the checkpoints, the model client and the Agent, each made on first use. */
  private readonly windowAgent: WindowAgent;
  private readonly chat: ChatController;
  /** The composer's model and effort pick, and the settings with it applied. */
  private readonly picker: ModelPicker;
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
    this.config = new WindowSettings({
      context,
      log,
      providers: this.providers,
      workspaceRoot: () => this.workspaceRoot,
      trusted: () => this.trusted,
      reloaded: () => this.mcp.settingsChanged(),
      keyLoaded: () => this.postHeader(),
      notice: (text) => this.post({ type: 'notice', text }),
    });
    this.mcp = new McpLifecycle({
      registry: this.registry,
      cacheDir: path.join(context.globalStorageUri.fsPath, 'mcp'),
      log,
      settings: () => this.config.loaded!,
      workspaceRoot: () => this.workspaceRoot,
      secrets: secretStore(context.secrets),
    });
    this.picker = new ModelPicker({ config: this.config, chat: () => this.chat as ChatController | undefined, log, picked: () => this.postHeader() });
    this.config.reload();
    this.editDiagnostics = new EditDiagnostics(log);
    this.disposables.push(this.editDiagnostics);
    this.edits = new EditSupport({ post: (m) => this.post(m), invalidate: (p) => this.windowAgent.started?.invalidatePath(p), warn: (m) => this.log.warn(m) });
    this.notifier = new TurnNotifier({
      enabled: () => this.config.settings['chat.notifyWhenUnfocused'],
      title: () => this.chat.session?.title ?? 'New chat',
      showChat: () => void vscode.commands.executeCommand('snowpea.focusChat'),
    });
    this.prompts = new WebviewPrompts((m) => this.post(m), this.edits.review, (m) => this.notifier.waiting(m));
    this.windowAgent = new WindowAgent({
      context,
      log,
      workspaceRoot: () => this.workspaceRoot,
      trusted: () => this.trusted,
      config: this.config,
      currentSettings: () => this.currentSettings(),
      registry: this.registry,
      mcp: this.mcp,
      edits: this.edits,
      editDiagnostics: this.editDiagnostics,
      prompts: this.prompts,
      terminals: this.terminals,
      track: (d) => this.disposables.push(d),
    });
    this.chat = new ChatController({
      agent: () => this.windowAgent.getAgent(),
      logger: log,
      delivery: () => this.config.settings['chat.messagesDuringTurn'],
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
        queueChanged: () => this.post(this.queueMessage()),
        idle: (reason) => this.notifier.turnEnded(reason),
      },
    });
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('snowpea') && (this.config.reload(), this.postHeader(), this.postQueue())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => (this.config.reload(), this.postHeader())),
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
    return this.picker.effective();
  }

  /** The model.name setting, without the composer's pick. */
  configuredModel(): string {
    return this.picker.configured();
  }

  /** The composer's model picker and effort control (ModelPicker.pick); `model: null` goes back to model.name. */
  pickModel(pick: { model?: string | null; effort?: ModelChoice['effort'] | null }): Promise<void> {
    return this.picker.pick(pick);
  }

  /** The picker's list: the provider's models (its /models, or the editor's language models), or why there are none. */
  pickerModels(): Promise<Extract<HostMessage, { type: 'models.result' }>> {
    return this.picker.pickerModels();
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
    return this.windowAgent.started;
  }

  /** File checkpoints of the workspace folders (none in a window without one; one store per folder in a multi-root workspace). */
  get checkpoints(): RestoreSeam | undefined {
    return this.windowAgent.checkpoints;
  }

  /** MCP servers of this window, attached to the registry on first use (cached tool lists show at once). */
  mcpManager(): McpManager {
    return this.mcp.manager();
  }

  existingMcpManager(): McpManager | undefined {
    return this.mcp.existing();
  }

  /** The key for the current endpoint (api-key.ts); `ask` lets it confirm a workspace-chosen origin with the user. */
  loadApiKey(ask = false): Promise<void> {
    return this.config.loadApiKey(ask);
  }

  /**
   * The agent registers tool_search and delegate_task: lists of every tool (the Tools tree, Show
   * Tools (JSON)) call this first. It opens state.db, as the first chat would.
   */
  ensureAgentTools(): Promise<void> {
    return this.windowAgent.ensureStarted();
  }

  /** The provider needs a key and has none (the default OpenAI endpoint): the chat shows a setup card instead of failing on send. */
  setupNeeded(): boolean {
    return this.config.setupNeeded();
  }

  /** Host -> webview messages; the chat view subscribes. */
  subscribe(listener: (msg: HostMessage) => void): vscode.Disposable {
    const sub = this.messages.event(listener);
    return new vscode.Disposable(() => sub.dispose());
  }

  private post(msg: HostMessage): void {
    this.messages.fire(msg);
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
    const effort = this.picker.effort();
    return {
      type: 'header',
      sessionId: s?.id ?? '',
      title: s?.title ?? 'New chat',
      model: effective['model.name'],
      workspaceTrusted: this.trusted,
      setupNeeded: this.setupNeeded(),
      supportsImages: modelCapabilities(effective['model.name'], effective).supportsImages,
      mode: this.chat.mode,
      defaultModel: this.config.settings['model.name'],
      ...(effort ? { effort } : {}),
      ...(this.chat.agentName ? { agent: this.chat.agentName } : {}),
    };
  }

  /** Settings, the API key, trust or the session's title changed: the chat's header follows. */
  private postHeader(): void {
    if (this.messages.listenerCount) this.post(this.header());
  }

  /** The current session's waiting messages as the chat shows them. */
  private queueMessage(): HostMessage {
    return queueMessage(this.chat.queue(), this.chat.session?.id ?? '', this.config.settings['chat.messagesDuringTurn']);
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
    const notices = this.config.trustNotices().map((text): HostMessage => ({ type: 'notice', text }));
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

  /** `/agent NAME`: the chat runs as that custom agent (null: Snowpea's own); the header says which. */
  async setAgent(name: string | null): Promise<void> {
    await this.chat.setAgent(name);
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
  availableModels(): Promise<string[]> {
    return this.picker.available();
  }

  /** Stored sessions, newest first (the Resume Session picker). */
  async listSessions(): Promise<Array<{ id: string; title: string; updated: number; rounds: number }>> {
    return (await this.windowAgent.getStore()).listSessions();
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
    return (await this.windowAgent.getStore()).exportSession(id, format);
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
    this.windowAgent.started?.dispose();
    const store = this.windowAgent.openedStore;
    await Promise.all([store ? (await store).close() : undefined, this.mcp.close(), closeAllBrowsers()]);
  }
}
