import * as fs from 'node:fs';
import * as path from 'node:path';
import { limitsFromSettings } from '../images/limits';
import { AttachmentStore } from '../images/store';
import type { Logger } from '../log';
import { modelCapabilities } from '../model/capabilities';
import type { ModelClient, Usage } from '../model/types';
import type { Settings } from '../settings/schema';
import type { ToolRegistry } from '../tools/registry';
import { RepeatGuard } from '../tools/repeat-guard';
import { SessionToolRuntime } from '../tools/runtime';
import { createDelegateTaskTool, type ChildOutcome } from '../tools/delegate-task';
import { createToolSearchTool } from '../tools/tool-search';
import { ApprovalMemory } from '../tools/policy/memory';
import { pruneOldScratch, removeSessionScratch } from '../tools/exec/scratch';
import { TOOL } from '../tools/names';
import { modeTools } from '../tools/modes';
import type { Approver, FileReader, FileWriter, ToolContext } from '../tools/types';
import type { Disposable } from '../conversation/emitter';
import { AgentLoop, type DuringTurnMessage, type TurnResult } from './loop';
import { RoundMeter } from './meter';
import { BudgetGuard } from './budget/guard';
import type { BudgetAsker } from './budget/types';
import { isTurnPrompt, type ContentPart, type Message } from '../conversation/messages';
import type { TodoItem } from '../conversation/events';
import { closeOrphanCalls } from '../conversation/orphans';
import { SessionPromptBuilder } from '../context/prompt-builder';
import { ProjectContext } from '../context/project-context';
import type { StartingTools } from '../tools/starting-tools';
import type { TranscriptSink } from '../conversation/transcript-sink';
import type { CheckpointSeam } from '../conversation/checkpoint-seam';
import { Compactor, type CompactionOutcome } from '../context/compaction/compactor';
import { Session, type Mode } from '../conversation/session';
import type { PromptPart } from '../context/system-prompt';
import type { ImageResolver } from '../conversation/wire';
import { composeUserPrompt, ownText, typedText, type ComposedPrompt, type ComposeInput } from '../input/compose';
import { deleteSessionWithAttachments, referencingSink } from '../images/session-refs';
import type { MentionSources } from '../input/mention-keywords';
import type { ModelChoice } from '../model/types';
import { commandPart, findAgent, findCommand, slashInvocation, WorkspaceLibrary } from '../library';
import { roleNames } from '../tools/roles';

/** What the agent needs from state.db beyond the transcript sink. */
export interface AgentStore extends TranscriptSink {
  createSession(s: { id?: string; parentId?: string | null; title: string; workspaceRoot: string; mode: string; role: string; loadedTools?: string[]; modelChoice?: ModelChoice }): { id: string; created: number };
  getSession(id: string): { id: string; parentId: string | null; title: string; workspaceRoot: string; mode: string; role: string; loadedTools: string[]; todos?: TodoItem[]; modelChoice?: ModelChoice; created: number } | null | undefined;
  getMessages(id: string): Message[];
  /** For deleteSession (state.db has both). */
  deleteSession?(id: string): boolean;
  childSessions?(parentId: string): Array<{ id: string }>;
  /** A session's stored token usage per round (the budget prices a resumed session's earlier rounds). */
  getUsage?(id: string): Array<{ prompt: number; completion: number; cached: number }>;
}

/** What `Agent.send` tells its caller before the turn runs. */
export interface SendHooks {
  /** Images and paths that were not attached (one line each, for the user); the rest of the message goes. */
  onProblems?(problems: string[]): void;
  /**
   * At each round boundary: the messages the user sent since, to deliver now (taken: the caller
   * forgets them). They are composed like the turn's own message and appended after the round's results.
   */
  duringTurn?(): Array<{ id: string; input: ComposeInput }>;
}

export interface SendResult extends TurnResult {
  /** The lines onProblems heard. */
  problems: string[];
}

export interface AgentOptions {
  workspaceRoot: string;
  settings: () => Settings;
  client: () => ModelClient;
  registry: ToolRegistry;
  store?: AgentStore;
  fileReader: FileReader;
  fileWriter?: FileWriter;
  approver: Approver;
  askUser?: ToolContext['askUser'];
  logger: Logger;
  /** Per-session scratch folders (full shell outputs, attachments) go under this. */
  scratchRoot: string;
  /** What the user already said about approvals ("always" answers; --yes in the CLI); default: nothing yet. */
  approvals?: ApprovalMemory;
  /** VS Code Workspace Trust, read at each call (trust can be granted mid-session). */
  workspaceTrusted?: () => boolean;
  /** The model endpoint's API key, for tools that call it themselves (media). */
  apiKey?: () => string | undefined | Promise<string | undefined>;
  extraPromptParts?: (session: Session) => PromptPart[];
  imageResolver?: ImageResolver;
  /** Where images are kept (view_image, pasted images, @path, MCP); default: <scratchRoot>/attachments. */
  attachments?: AttachmentStore;
  /** Whether the model takes images; default: modelCapabilities(model.name, settings). */
  supportsImages?: () => boolean;
  /** MCP servers still starting: each turn's first request and a tool_search that finds nothing wait for them. */
  startingTools?: StartingTools;
  /** File checkpoints before each user message (absent: none are kept). */
  checkpoints?: CheckpointSeam;
  /** VS Code: watches an edited file's diagnostics so write_file/edit_file report the problems they introduced. */
  watchProblems?: ToolContext['watchProblems'];
  /** Who answers when the next request would pass agent.budget (the chat's card, the terminal); absent: the turn stops there. */
  askBudget?: BudgetAsker;
  /** VS Code: its diagnostics and terminals for `@problems` and `@terminal` in a prompt (the CLI has none). */
  mentionSources?: MentionSources;
}

/**
 * The agent core as the host and the CLI use it: sessions (stored in state.db), the loop,
 * the tool runtime with the repeat guard and deferred tools, and the prompt builder.
 */
export class Agent implements Disposable {
  readonly runtime: SessionToolRuntime;
  readonly guard: RepeatGuard;
  readonly prompt: SessionPromptBuilder;
  readonly project: ProjectContext;
  private readonly loop: AgentLoop;
  private readonly sink?: TranscriptSink;
  private readonly live = new Map<string, Session>();
  readonly onEvent: AgentLoop['onEvent'];
  private readonly disposables: Disposable[] = [];
  /** The attachment store every image of this agent's sessions goes through. */
  readonly attachments: AttachmentStore;
  readonly supportsImages: () => boolean;
  /** Answers the user gave for this agent's lifetime (a window or one CLI run). */
  readonly approvals: ApprovalMemory;
  /** Compaction of conversations that near the model's context window (and /compact). */
  readonly compactor: Compactor;
  /** The money budget (agent.budget) and the forecast of each request's cost. */
  readonly budget: BudgetGuard;
  /** Slash commands, custom agents, skills and instruction files of the workspace and the user. */
  readonly library: WorkspaceLibrary;

  constructor(private readonly opts: AgentOptions) {
    this.approvals = opts.approvals ?? new ApprovalMemory();
    this.library = new WorkspaceLibrary({ workspaceRoot: opts.workspaceRoot, trusted: () => opts.workspaceTrusted?.() ?? true, logger: opts.logger });
    // Full outputs of sessions untouched for a week go (their sessions keep the capped text the model saw).
    void pruneOldScratch(opts.scratchRoot).catch((e: Error) => opts.logger.warn(`could not clean old scratch folders: ${e.message}`));
    this.runtime = new SessionToolRuntime(opts.registry, opts.settings);
    this.attachments = opts.attachments ?? new AttachmentStore({ dir: path.join(opts.scratchRoot, 'attachments'), limits: () => limitsFromSettings(opts.settings()), logger: opts.logger });
    this.supportsImages = opts.supportsImages ?? (() => modelCapabilities(opts.settings()['model.name'], opts.settings()).supportsImages);
    if (!opts.registry.has(TOOL.tool_search)) {
      this.disposables.push(
        opts.registry.register(
          createToolSearchTool({
            has: (n) => opts.registry.has(n),
            candidates: (sessionId) => {
              const s = this.live.get(sessionId);
              // A custom agent's search finds only tools its definition allows.
              return opts.registry.all().filter((t) => t.deferred && (!s || (!this.runtime.isActive(s, t.name) && (!s.customAgent || this.runtime.mayLoad(s, t)))));
            },
            ...(opts.startingTools ? { whenStarted: (signal: AbortSignal) => opts.startingTools!.started(signal) } : {}),
          }),
        ),
      );
    }
    if (!opts.registry.has(TOOL.delegate_task)) {
      this.disposables.push(
        opts.registry.register(
          createDelegateTaskTool({
            runChild: (parentId, req, ctx) => this.runChild(parentId, req, ctx.signal),
            defaultMaxRounds: () => Math.min(20, opts.settings()['agent.maxRounds']),
            customAgents: () => this.library.agents().map((a) => a.name),
          }),
        ),
      );
    }
    this.disposables.push(opts.registry.onDidChange(() => this.runtime.invalidate()));
    this.project = new ProjectContext({ settings: opts.settings, logger: opts.logger, library: this.library });
    this.runtime.decorators.push((session, call, result) => this.project.decorate(session, call, result));
    this.prompt = new SessionPromptBuilder({
      settings: opts.settings,
      deferredLine: () => this.runtime.deferredLine(),
      extraParts: (session) => [...this.project.parts(session), ...(opts.extraPromptParts?.(session) ?? [])],
      imageResolver: opts.imageResolver ?? this.attachments.resolver(this.supportsImages),
    });
    this.guard = new RepeatGuard({
      enabled: () => opts.settings()['tools.repeatGuard'],
      traitsOf: (name) => opts.registry.get(name)?.traits,
      isResultVisible: (sid, callId) => this.prompt.isResultVisible(sid, callId),
    });
    this.runtime.guard = this.guard;
    this.sink = opts.store && { ...referencingSink(opts.store, this.attachments, opts.logger), recordToolCall: opts.store.recordToolCall?.bind(opts.store) };
    this.compactor = new Compactor({ settings: opts.settings, client: opts.client, logger: opts.logger, sink: this.sink, imageResolver: this.prompt.imageResolver });
    const meter = new RoundMeter({ settings: opts.settings, prompt: this.prompt, runtime: this.runtime, compactor: this.compactor, client: opts.client });
    this.budget = new BudgetGuard({
      settings: opts.settings,
      tokens: this.compactor.estimator,
      rootOf: (session) => this.rootOf(session),
      asker: opts.askBudget,
      storedUsage: (id) => this.storedUsage(id),
      logger: opts.logger,
    });
    this.loop = new AgentLoop({
      compactor: this.compactor,
      client: opts.client,
      tools: this.runtime,
      prompt: this.prompt,
      settings: opts.settings,
      logger: opts.logger,
      sink: this.sink,
      toolContext: (session, signal, onOutput) => this.toolContext(session, signal, onOutput),
      ...(opts.startingTools ? { beforeFirstRequest: (_session: Session, signal: AbortSignal) => opts.startingTools!.firstListed(signal) } : {}),
      // The chat's meter: a subagent's rounds show as its delegate_task card, not on the meter.
      meter: (session, usage) => (session.isSubagent ? undefined : meter.measure(session, usage)),
      beforeRequest: (session, request, signal, tell) => this.budget.check(session, request, signal, tell),
    });
    this.onEvent = this.loop.onEvent;
    this.disposables.push(this.loop.onEvent((e) => this.budget.observe(e, (id) => this.live.get(id))));
  }

  newSession(init: { mode?: Mode; role?: string; parentId?: string; title?: string; modelChoice?: ModelChoice } = {}): Session {
    const session = new Session({ workspaceRoot: this.opts.workspaceRoot, ...init });
    this.opts.store?.createSession({
      id: session.id,
      parentId: session.parentId ?? null,
      title: session.title,
      workspaceRoot: session.workspaceRoot,
      mode: session.mode,
      role: session.role,
      loadedTools: session.loadedTools,
      modelChoice: session.modelChoice,
    });
    this.live.set(session.id, session);
    return session;
  }

  /**
   * A user's message as the loop takes it: `@path` mentions expanded, pasted images and
   * `--attach` paths through the attachment store. Refused images leave a note, never lose the rest.
   * What `send` sends; tests compose alone to look at the result.
   */
  async compose(input: ComposeInput, signal?: AbortSignal): Promise<ComposedPrompt> {
    const composed = await composeUserPrompt(input, {
      workspaceRoot: this.opts.workspaceRoot,
      store: this.attachments,
      readMaxLines: this.opts.settings()['tools.readMaxLines'],
      fileReader: this.opts.fileReader,
      signal,
      mentionSources: this.opts.mentionSources,
      workspaceTrusted: this.opts.workspaceTrusted?.() ?? true,
    });
    // `/name args` for a command from a prompt file: its text follows what the user typed, which stays first (their own words).
    const slash = slashInvocation(input.text);
    const command = slash && findCommand(this.library.commands(), slash.name);
    if (!slash || !command) return composed;
    const part = { type: 'text' as const, text: commandPart(command, slash.args, this.opts.workspaceRoot) };
    const content = typeof composed.content === 'string' ? [{ type: 'text' as const, text: composed.content }, part] : [...composed.content, part];
    return { ...composed, content };
  }

  /** Resumes a stored session: the next turn continues with the full stored transcript. */
  openSession(id: string): Session | undefined {
    const live = this.live.get(id);
    if (live) return live;
    const rec = this.opts.store?.getSession(id);
    if (!rec) return undefined;
    const session = new Session({
      id: rec.id,
      title: rec.title,
      workspaceRoot: rec.workspaceRoot,
      mode: rec.mode as Mode,
      role: rec.role,
      parentId: rec.parentId ?? undefined,
      loadedTools: rec.loadedTools,
      todos: rec.todos ?? [],
      modelChoice: rec.modelChoice ?? {},
      messages: this.opts.store!.getMessages(id),
      created: rec.created,
    });
    // A round a crash or a closed window interrupted can end in a call without its result: store one.
    if (closeOrphanCalls(session, this.sink)) {
      this.opts.logger.info(`session ${id}: a tool call interrupted earlier was marked as interrupted`);
      void Promise.resolve(this.sink?.commitRound()).catch((e: Error) => this.opts.logger.warn(`could not save the interrupted call's result: ${e.message}`));
    }
    this.live.set(id, session);
    return session;
  }

  /**
   * One turn of what the user wrote (the chat's Send, `snowpea run`): composed (compose), then run;
   * a new session is titled from the user's own text, never from the notes about refused
   * attachments or the inlined files. `onProblems` hears what was not attached before the turn starts.
   */
  async send(session: Session, input: ComposeInput, signal: AbortSignal, hooks: SendHooks = {}): Promise<SendResult> {
    const composed = await this.compose(input, signal);
    if (composed.problems.length) hooks.onProblems?.(composed.problems);
    const take = hooks.duringTurn;
    const duringTurn = take && (() => this.composeEach(take(), hooks, signal));
    const result = await this.turn(session, composed.content, signal, ownText(input), duringTurn);
    return { ...result, problems: composed.problems };
  }

  /** Messages sent during a turn, composed in order; one that cannot be composed goes as the text typed (nothing is lost). */
  private async composeEach(taken: Array<{ id: string; input: ComposeInput }>, hooks: SendHooks, signal: AbortSignal): Promise<DuringTurnMessage[]> {
    const out: DuringTurnMessage[] = [];
    for (const { id, input } of taken) {
      try {
        const composed = await this.compose(input, signal);
        if (composed.problems.length) hooks.onProblems?.(composed.problems);
        out.push({ id, content: composed.content });
      } catch (e) {
        this.opts.logger.warn(`a message sent during the turn could not be composed (${(e as Error).message}); it goes as typed`);
        out.push({ id, content: input.text });
      }
    }
    return out;
  }

  /** A turn with a prompt as the loop takes it, composed by the caller (tests and the benchmarks); the title comes from the prompt's text. */
  runTurn(session: Session, prompt: string | ContentPart[], signal: AbortSignal): Promise<TurnResult> {
    return this.turn(session, prompt, signal);
  }

  private async turn(session: Session, prompt: string | ContentPart[], signal: AbortSignal, title?: string, duringTurn?: () => Promise<DuringTurnMessage[]>): Promise<TurnResult> {
    this.live.set(session.id, session);
    const before = session.loadedTools.length;
    // The checkpoint is taken while the first request is out (a large workspace's first one takes
    // seconds); no tool runs before it is done, and the turn ends only once it is recorded.
    const checkpoint = session.isSubagent ? undefined : this.opts.checkpoints?.atTurnStart(session.id, session.turn + 1, signal);
    try {
      return await this.loop.runTurn(session, prompt, signal, { ...(title === undefined ? {} : { title }), ...(checkpoint ? { beforeTools: checkpoint } : {}), ...(duringTurn ? { duringTurn } : {}) });
    } finally {
      await checkpoint;
      if (!session.isSubagent) this.opts.checkpoints?.atTurnEnd?.(session.id);
      if (session.loadedTools.length !== before) this.opts.store?.updateSession(session.id, { loadedTools: session.loadedTools });
    }
  }

  /**
   * Changes the session's mode (the user's plan toggle, /plan, an approved plan, `snowpea run
   * --plan`/`--act`, or set_mode): stored, and reported as a `mode` event. The next request
   * carries the mode's tools and prompt line.
   */
  setMode(session: Session, mode: Mode): void {
    if (session.mode === mode) return;
    // The tools the old mode required stay, loaded (an approved plan's todo list can still be updated).
    const kept = session.isSubagent ? [] : session.loadTools([...modeTools(session.mode)]);
    session.mode = mode;
    this.opts.store?.updateSession(session.id, { mode, ...(kept.length ? { loadedTools: session.loadedTools } : {}) });
    this.loop.notify(session, { type: 'mode', sessionId: session.id, mode });
  }

  /**
   * The model and effort the user picked for a session in the chat (the composer's picker): stored
   * with the session. The host applies it over the settings (model-choice.ts); {} goes back to them.
   */
  setModelChoice(session: Session, choice: ModelChoice): void {
    session.modelChoice = { ...choice };
    this.opts.store?.updateSession(session.id, { modelChoice: session.modelChoice });
  }

  /** Replaces the session's todo list (todo_write): stored with the session, reported as a `todos` event. */
  setTodos(session: Session, todos: TodoItem[]): void {
    session.todos = todos.map((t) => ({ ...t }));
    this.opts.store?.updateSession(session.id, { todos: session.todos });
    this.loop.notify(session, { type: 'todos', sessionId: session.id, todos: session.todos });
  }

  /**
   * Compacts a session between turns (/compact, `snowpea sessions compact`): the model summarizes
   * the conversation and later requests carry the summary; undefined when there is nothing to
   * compact yet. Throws ModelError('cancelled') when `signal` aborts.
   */
  async compact(session: Session, focus: string | undefined, signal: AbortSignal): Promise<CompactionOutcome | undefined> {
    this.live.set(session.id, session);
    return this.loop.compact(session, focus, signal);
  }

  /**
   * Rewinds the conversation to before the user's message of `turn` (Restore and rewind): later
   * requests and the chat go back to how they were before it; the stored transcript keeps every
   * message and gains the rewind. False when the session has no such message.
   */
  async rewind(session: Session, turn: number): Promise<boolean> {
    const to = userMessageIndex(session.messages, turn);
    if (to < 0) return false;
    const message: Message = { role: 'user', attachedBy: 'rewind', content: `[the conversation was rewound to before message ${turn}; the later messages stay stored]`, rewind: { to, turn } };
    session.messages.push(message);
    this.sink?.appendMessage(session.id, { turn: session.turn, round: session.round, message });
    await this.sink?.commitRound();
    return true;
  }

  /**
   * Deletes a stored session with its delegated children, then the attachment files no other
   * session holds (a failure there is logged; the session is deleted regardless). False when
   * the session is unknown or there is no state.db.
   */
  async deleteSession(id: string): Promise<boolean> {
    const store = this.opts.store;
    if (!store?.deleteSession || !store.childSessions) return false;
    const deleted = await deleteSessionWithAttachments(store as Required<AgentStore>, this.attachments, id, this.opts.logger);
    for (const sid of deleted) {
      await removeSessionScratch(this.opts.scratchRoot, sid);
      await this.opts.checkpoints?.forget(sid);
      this.releaseSession(sid);
    }
    return deleted.length > 0;
  }

  /**
   * Drops what is kept in memory for a session the user left (its messages, the repeat guard's
   * reads, the prompt and project caches); state.db keeps it, so it can be opened again.
   */
  releaseSession(id: string): void {
    this.live.delete(id);
    this.guard.forgetSession(id);
    this.prompt.forget(id);
    this.project.forget(id);
    this.compactor.forget(id);
    this.budget.forget(id);
  }

  /**
   * delegate_task: a child session through the same loop, stored linked to its parent, with
   * an empty history and the task as its only user message. Cancelling the parent's signal
   * cancels the child.
   */
  async runChild(parentId: string, req: { task: string; agent: string; maxRounds: number }, signal: AbortSignal): Promise<ChildOutcome> {
    const parent = this.live.get(parentId);
    // A custom agent (its file read again now, under today's trust): its instructions and tool limits; never a built-in's name.
    const custom = roleNames().includes(req.agent) ? undefined : findAgent(this.library.agents(), req.agent);
    if (custom?.maxRounds) req = { ...req, maxRounds: Math.min(req.maxRounds, custom.maxRounds) };
    const child = new Session({
      ...(custom
        ? { customAgent: { name: custom.name, instructions: custom.instructions, ...(custom.tools ? { tools: custom.tools } : {}), ...(custom.deniedTools ? { deniedTools: custom.deniedTools } : {}) } }
        : {}),
      workspaceRoot: parent?.workspaceRoot ?? this.opts.workspaceRoot,
      parentId,
      isSubagent: true,
      role: custom?.name ?? req.agent,
      // A child never has more power than its parent: a plan/ask parent gets a read-only child.
      mode: parent?.mode ?? 'code',
      title: `${req.agent}: ${req.task.replace(/\s+/g, ' ').slice(0, 70)}`,
      budgetRounds: req.maxRounds,
    });
    this.opts.store?.createSession({ id: child.id, parentId, title: child.title, workspaceRoot: child.workspaceRoot, mode: child.mode, role: child.role });
    this.live.set(child.id, child);
    try {
      const result = await this.loop.runTurn(child, req.task, signal, { maxRounds: req.maxRounds });
      const toolCounts: Record<string, number> = {};
      for (const m of child.messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) toolCounts[c.name] = (toolCounts[c.name] ?? 0) + 1;
      return { text: result.text, reason: result.reason, rounds: result.rounds, toolCounts, childSessionId: child.id };
    } finally {
      this.live.delete(child.id);
      this.guard.forgetSession(child.id);
      this.prompt.forget(child.id);
      this.project.forget(child.id);
      this.compactor.forget(child.id);
      this.budget.forget(child.id);
    }
  }

  /** The session a session's spending counts for: itself, or (a subagent) its root parent while that is live. */
  private rootOf(session: Session): Session {
    let root = session;
    while (root.parentId && this.live.get(root.parentId)) root = this.live.get(root.parentId)!;
    return root;
  }

  /** The token usage stored for a session and its subagents, as the pricing takes it. */
  private storedUsage(id: string): Usage[] {
    const store = this.opts.store;
    if (!store?.getUsage) return [];
    const ids = [id, ...(store.childSessions?.(id) ?? []).map((c) => c.id)];
    return ids.flatMap((sid) => store.getUsage!(sid).map((u) => ({ promptTokens: u.prompt, cachedTokens: u.cached, completionTokens: u.completion })));
  }

  private toolContext(session: Session, signal: AbortSignal, onOutput: (chunk: string) => void): ToolContext {
    const scratchDir = path.join(this.opts.scratchRoot, session.id);
    fs.mkdirSync(scratchDir, { recursive: true });
    return {
      workspaceRoot: session.workspaceRoot,
      fileReader: this.opts.fileReader,
      fileWriter: this.opts.fileWriter,
      approver: this.opts.approver,
      signal,
      settings: this.opts.settings(),
      session: { id: session.id, mode: session.mode, role: session.role, isSubagent: session.isSubagent, ...(session.customAgent ? { customAgent: session.customAgent } : {}) },
      onOutput,
      scratchDir,
      askUser: session.isSubagent ? undefined : this.opts.askUser,
      setMode: (mode) => this.setMode(session, mode),
      ...(session.isSubagent ? {} : { setTodos: (todos: TodoItem[]) => this.setTodos(session, todos) }),
      loadTools: (names) => {
        const added = session.loadTools(names);
        if (added.length) this.opts.store?.updateSession(session.id, { loadedTools: session.loadedTools });
        return added;
      },
      workspaceTrusted: this.opts.workspaceTrusted?.() ?? true,
      approvals: this.approvals,
      apiKey: this.opts.apiKey,
      watchProblems: this.opts.watchProblems,
      userTexts: () => this.userTexts(session),
      attachments: {
        supportsImages: this.supportsImages(),
        addFile: (p, o) => this.attachments.addFile(p, o),
        addBytes: (b, o) => this.attachments.addBytes(b, o),
        addBase64: (d, o) => this.attachments.addBase64(d, o),
      },
    };
  }

  /**
   * What the user typed in this conversation (a subagent's: its root parent's), for the browser's
   * first-visit consent and typed-only policy: their own text only, never the files `@path` and
   * --attach inlined after it (red-team N7: a README's address is not one the user typed).
   */
  private userTexts(session: Session): string[] {
    return this.rootOf(session).messages.flatMap((m) => (m.role === 'user' && !m.attachedBy ? [typedText(m.content)] : []));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.loop.dispose();
  }
}

/** Transcript index of the user's message of `turn` (turns count the user's own messages from 1); -1 when there is none. */
export function userMessageIndex(messages: readonly Message[], turn: number): number {
  let n = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (isTurnPrompt(m) && ++n === turn) return i;
  }
  return -1;
}
