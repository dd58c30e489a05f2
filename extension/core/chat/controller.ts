import type { CompactionOutcome } from '../context/compaction/compactor';
import type { Disposable } from '../conversation/emitter';
import type { AgentEvent, TurnEndReason } from '../conversation/events';
import type { Mode, Session } from '../conversation/session';
import type { ComposeInput } from '../input/compose';
import type { Logger } from '../log';
import type { ModelChoice } from '../model/types';
import type { ChatAgent, ChatHooks } from './chat-agent';
import { MessageQueue, QueueRefused, type Delivery, type QueueState } from './message-queue';

/** The user's message that approves a plan (the chat's "Approve plan" button): act mode is on when it is sent. */
export const PLAN_APPROVED = 'Plan approved. Carry it out now, step by step.';

/** Why the conversation cannot be compacted now (a turn runs, no conversation yet): said, not an error. */
export class CompactRefused extends Error {}

export interface ChatControllerOptions {
  /** The agent, created on first use (the host shares one creation between concurrent calls). */
  agent(): Promise<ChatAgent>;
  hooks: ChatHooks;
  logger: Logger;
  /** How long New Chat, Resume and Delete Session wait for a stopped turn to end; default 5 s. */
  stopWaitMs?: number;
  /** How long close waits for the stopped turn to store its round; default 2 s. */
  closeWaitMs?: number;
  /** How a message sent during a turn is delivered unless the user picks (chat.messagesDuringTurn); default steer. */
  delivery?: () => Delivery;
  /** Where each session's waiting messages are kept between windows (absent: in memory only). */
  queueStore?: QueueStore;
}

/** Keeps a session's waiting messages (VS Code: the workspace's state); an empty queue is forgotten. */
export interface QueueStore {
  load(sessionId: string): QueueState | undefined;
  save(sessionId: string, state: QueueState): void;
}

/**
 * One chat's lifecycle, without VS Code: the current session (new chat, resume, delete), the
 * turn running in it (send, stop, retry, the "already running" refusal), compaction between
 * turns, and what a reloaded view needs to catch up (the text of the round in flight). The host
 * wires it to the agent and renders what it reports through ChatHooks.
 */
export class ChatController {
  private current?: Session;
  private agent?: ChatAgent;
  private subscription?: Disposable;
  private running?: AbortController;
  /** The session the running turn belongs to. */
  private runningSession?: Session;
  /** Settles when the running turn has ended (its last writes to state.db included). */
  private turnEnded: Promise<void> = Promise.resolve();
  /** A compaction between turns (/compact, Compact Conversation) in progress, and when it has ended. */
  private compacting?: AbortController;
  private compactionEnded: Promise<void> = Promise.resolve();
  private lastPrompt?: ComposeInput;
  private partial = '';
  /** The mode the user picked before the chat had a session: the first send's new session starts in it. */
  private nextMode: Mode = 'code';
  /** The custom agent picked before the chat had a session (or the last session's, after New Chat); null: Snowpea's own. */
  private nextAgent: string | null = null;
  /** The model and effort picked before the chat had a session (or the last session's, after New Chat). */
  private nextChoice: ModelChoice = {};
  /** Each session's messages sent during its turns, waiting; `unsessioned` until a first turn's session exists. */
  private readonly queues = new Map<string, MessageQueue>();
  private unsessioned?: MessageQueue;

  constructor(private readonly opts: ChatControllerOptions) {}

  get session(): Session | undefined {
    return this.current;
  }

  isRunning(): boolean {
    return !!this.running;
  }

  /** The mode the chat is in: the current session's, or the one its first message will start in. */
  get mode(): Mode {
    return this.current?.mode ?? this.nextMode;
  }

  /**
   * The user's plan toggle and `/plan`, `/act`: the current session changes mode (its `mode` event
   * reaches the hooks), or without one the next new session starts in `mode`. A running turn's next
   * request follows it: the user may always take power away, or give it back.
   */
  async setMode(mode: Mode): Promise<void> {
    if (!this.current) {
      this.nextMode = mode;
      this.opts.hooks.sessionChanged();
      return;
    }
    // Synchronous once the agent is known (it is, with a session): a message sent right after `/plan` runs in plan mode.
    (this.agent ?? (await this.theAgent())).setMode(this.current, mode);
  }

  /** The custom agent the chat runs as: the current session's, or the one its first message will use; undefined: Snowpea's own. */
  get agentName(): string | undefined {
    return (this.current ? this.current.customAgent?.name : this.nextAgent) ?? undefined;
  }

  /**
   * The agent picker and `/agent NAME`: the current session runs as that custom agent from its next
   * request (null: Snowpea's own), or without a session the next new one starts as it. A name the
   * library does not have (or no longer trusts) is said and changes nothing.
   */
  async setAgent(name: string | null): Promise<void> {
    const agent = this.agent ?? (await this.theAgent());
    const known = name === null ? null : agent.agents().find((a) => a.name.toLowerCase() === name.toLowerCase())?.name;
    if (known === undefined) {
      return this.opts.hooks.error(`There is no custom agent named "${name}" in this workspace or your user folders (or the workspace is not trusted).`);
    }
    if (!this.current) this.nextAgent = known;
    else agent.setAgent(this.current, known);
    this.opts.hooks.sessionChanged();
  }

  /** The model and effort picked in the chat: the current session's, or the ones its first message will use ({}: the settings'). */
  get modelChoice(): ModelChoice {
    return this.current?.modelChoice ?? this.nextChoice;
  }

  /**
   * The composer's model picker and effort control: the current session's choice (stored with it),
   * or without one the next new session's. A running turn's next request uses it.
   */
  async setModelChoice(choice: ModelChoice): Promise<void> {
    if (!this.current) this.nextChoice = { ...choice };
    else (this.agent ?? (await this.theAgent())).setModelChoice(this.current, choice);
    this.opts.hooks.sessionChanged();
  }

  /**
   * "Approve plan": a plan-mode session switches to code (act) mode and the model is told to carry
   * the plan out, as a new turn. Refused (said, not thrown) while a turn runs or outside plan mode.
   */
  async approvePlan(): Promise<void> {
    if (this.running) return this.opts.hooks.error('A turn is running: wait for the plan to finish, then approve it.');
    if (!this.current || this.current.mode !== 'plan') return this.opts.hooks.error('There is no plan to approve: the chat is not in plan mode.');
    await this.setMode('code');
    await this.send({ text: PLAN_APPROVED });
  }

  /** Why the conversation cannot be restored, rewound or compacted now; undefined when it can. */
  busyReason(): string | undefined {
    if (this.running) return 'A turn is running: stop it or wait for it to finish.';
    return this.compacting ? 'The conversation is being compacted: wait for it to finish.' : undefined;
  }

  /**
   * Text of the round in flight, which the stored transcript does not have yet (a reloaded view
   * shows it after the replay); '' when no turn runs. The round's text is in session.messages
   * once its tool calls start.
   */
  inFlightText(): string {
    return this.running ? this.partial : '';
  }

  /** Provider error -> Retry: the last prompt again, as a new turn. */
  async retry(): Promise<void> {
    if (this.running) return this.opts.hooks.error('A turn is running: wait for it to finish, then retry.');
    if (this.lastPrompt) await this.send(this.lastPrompt);
  }

  /**
   * Runs a turn of `input` in the current session (a new one when there is none); resolves when the
   * turn has ended and the messages waiting after it have run. While a turn runs, `input` waits in
   * the session's queue instead (`delivery`, default: the setting) and this resolves at once.
   */
  async send(input: ComposeInput, opts: { delivery?: Delivery } = {}): Promise<void> {
    // A message sent while the conversation is being compacted waits for it: the turn builds on the summary.
    if (this.compacting) await this.compactionEnded;
    if (this.running) return this.guarded(() => void this.queueOf(this.runningSession ?? this.current).add(input, opts.delivery ?? this.opts.delivery?.() ?? 'steer'));
    let { reason, session } = await this.runTurn(input);
    // The waiting messages go on while the chat stays with this session and its turns end well;
    // a turn stopped or failed holds them (nothing is sent later by surprise).
    while (session) {
      const queue = this.queueOf(session);
      if (reason !== 'done') queue.hold(true);
      if (session !== this.current || this.running) break;
      const next = queue.held ? undefined : queue.next();
      if (!next) break;
      ({ reason, session } = await this.runTurn(next.input));
    }
    if (session && session === this.current && !this.running) this.opts.hooks.idle?.(reason);
  }

  /** One turn; its end reason ('error' when it failed before the loop) and the session it ran in. */
  private async runTurn(input: ComposeInput): Promise<{ reason: TurnEndReason; session?: Session }> {
    const { hooks } = this.opts;
    this.lastPrompt = input;
    const controller = new AbortController();
    this.running = controller;
    let ended!: () => void;
    this.turnEnded = new Promise((resolve) => (ended = resolve));
    hooks.runningChanged(true);
    let session: Session | undefined;
    let reason: TurnEndReason = 'error';
    try {
      const agent = await this.theAgent();
      if (!this.current) {
        // The view knows no session yet: it learns the new one before any of its events.
        this.current = agent.newSession({ mode: this.nextMode, modelChoice: this.nextChoice });
        this.nextMode = 'code';
        if (this.nextAgent !== null && !agent.setAgent(this.current, this.nextAgent)) hooks.error(`The ${this.nextAgent} agent is not found now; this chat runs as Snowpea.`);
        this.adoptUnsessioned(this.current);
        await hooks.sessionStarted();
      }
      session = this.current;
      this.runningSession = session;
      hooks.sessionChanged();
      await hooks.beforeRequest();
      const queue = this.queueOf(session);
      ({ reason } = await agent.send(session, input, controller.signal, {
        onProblems: (problems) => problems.forEach((p) => hooks.error(p)),
        duringTurn: () => queue.takeSteering().map((m) => ({ id: m.id, input: m.input })),
      }));
    } catch (e) {
      this.opts.logger.error(`turn failed: ${(e as Error).stack ?? e}`);
      hooks.error((e as Error).message);
    } finally {
      // A turn detached by stopTurn() leaves the state of the turn after it alone.
      if (this.running === controller) {
        this.running = undefined;
        this.runningSession = undefined;
        hooks.runningChanged(false);
      }
      ended();
      // The chat moved on (New Chat, Resume) while this turn ran: its session can go now.
      if (session && session !== this.current) this.release(session);
    }
    return { reason, session };
  }

  /** The current session's waiting messages (none before its first turn starts). */
  queue(): QueueState {
    return this.current ? this.queueOf(this.current).snapshot() : (this.unsessioned?.snapshot() ?? { items: [], held: false });
  }

  /** New text for a waiting message; refused (said) when it has been sent already. */
  editQueued(id: string, text: string): void {
    this.guarded(() => this.currentQueue().edit(id, text));
  }

  removeQueued(id: string): void {
    this.guarded(() => this.currentQueue().remove(id));
  }

  setQueuedDelivery(id: string, delivery: Delivery): void {
    this.guarded(() => this.currentQueue().setDelivery(id, delivery));
  }

  /**
   * A waiting message's Send now: while a turn runs it is read at the next round boundary; else it
   * runs as a turn now, and a held queue goes on after it.
   */
  async sendQueuedNow(id: string): Promise<void> {
    const queue = this.currentQueue();
    if (this.running) return this.guarded(() => queue.setDelivery(id, 'steer'));
    let message;
    try {
      message = queue.take(id);
    } catch (e) {
      if (e instanceof QueueRefused) return this.opts.hooks.error(e.message);
      throw e;
    }
    await this.send(message.input);
  }

  /** Runs a queue operation; a refusal is said to the user. */
  private guarded(op: () => void): void {
    try {
      op();
    } catch (e) {
      if (!(e instanceof QueueRefused)) throw e;
      this.opts.hooks.error(e.message);
    }
  }

  private currentQueue(): MessageQueue {
    return this.queueOf(this.current);
  }

  /** A session's queue, loaded from the queue store on first use (held: nothing in it is sent before the user says so). */
  private queueOf(session: Session | undefined): MessageQueue {
    if (!session) return (this.unsessioned ??= new MessageQueue(() => this.opts.hooks.queueChanged?.()));
    let queue = this.queues.get(session.id);
    if (!queue) {
      const stored = this.opts.queueStore?.load(session.id);
      queue = this.newQueue(session.id, stored && { items: stored.items, held: true });
      this.queues.set(session.id, queue);
    }
    return queue;
  }

  private newQueue(sessionId: string, init?: QueueState): MessageQueue {
    return new MessageQueue((state) => {
      this.opts.queueStore?.save(sessionId, state);
      if (sessionId === this.current?.id) this.opts.hooks.queueChanged?.();
    }, init);
  }

  /** Messages sent while a first turn was starting belong to the session it made. */
  private adoptUnsessioned(session: Session): void {
    const waiting = this.unsessioned;
    this.unsessioned = undefined;
    if (!waiting?.size) return;
    const queue = this.newQueue(session.id, waiting.snapshot());
    this.queues.set(session.id, queue);
    this.opts.queueStore?.save(session.id, queue.snapshot());
  }

  stop(): void {
    this.running?.abort();
  }

  /**
   * The model summarizes the current session now; its `compaction` event reaches the hooks as a
   * turn's events do. Undefined when there is nothing to compact yet. Refused (CompactRefused)
   * while a turn runs or without a conversation; throws ModelError('cancelled') when `controller`
   * aborts (New Chat, Resume and Delete Session abort it too). A message sent meanwhile waits for it.
   */
  async compact(focus: string | undefined, controller: AbortController): Promise<CompactionOutcome | undefined> {
    if (this.running) throw new CompactRefused('A turn is running: wait for the turn to finish or stop it, then compact.');
    if (this.compacting) throw new CompactRefused('The conversation is being compacted already.');
    const session = this.current;
    if (!session) throw new CompactRefused('There is no conversation to compact yet.');
    this.compacting = controller;
    let ended!: () => void;
    this.compactionEnded = new Promise((resolve) => (ended = resolve));
    try {
      const agent = await this.theAgent();
      await this.opts.hooks.beforeRequest();
      return await agent.compact(session, focus, controller.signal);
    } finally {
      if (this.compacting === controller) this.compacting = undefined;
      ended();
    }
  }

  /** Makes a stored session current (a running turn is stopped and awaited first); the next turn continues its transcript. */
  async resume(id: string): Promise<Session> {
    await this.stopTurn();
    const agent = await this.theAgent();
    const session = agent.openSession(id);
    if (!session) throw new Error(`no stored session ${id}`);
    this.switchTo(session);
    return session;
  }

  /** Starts over: a running turn is stopped and awaited first, so the new chat starts idle. */
  async newChat(): Promise<void> {
    await this.stopTurn();
    this.switchTo(undefined);
  }

  /**
   * Deletes a stored session with its delegated children. The current session is stopped first
   * and replaced by a new chat (`wasCurrent`).
   */
  async deleteSession(id: string): Promise<{ deleted: boolean; wasCurrent: boolean }> {
    const wasCurrent = this.current?.id === id;
    if (wasCurrent) await this.stopTurn();
    const deleted = await (await this.theAgent()).deleteSession(id);
    this.queues.delete(id);
    this.opts.queueStore?.save(id, { items: [], held: false });
    if (wasCurrent) await this.newChat();
    return { deleted, wasCurrent };
  }

  /** The window closes: stops the turn and the compaction, then waits (at most closeWaitMs) for the turn to store its round. */
  async close(): Promise<void> {
    this.stop();
    this.compacting?.abort();
    await waitAtMost(this.turnEnded, this.opts.closeWaitMs ?? 2000);
    this.subscription?.dispose();
  }

  /** The agent, subscribed to once: the current session's events go to the hooks. */
  private async theAgent(): Promise<ChatAgent> {
    const agent = await this.opts.agent();
    if (agent !== this.agent) {
      this.subscription?.dispose();
      this.agent = agent;
      this.subscription = agent.onEvent((e) => this.onEvent(e));
    }
    return agent;
  }

  private onEvent(e: AgentEvent): void {
    if (e.sessionId !== this.current?.id) return;
    if (e.type === 'round.start' || e.type === 'tool.call' || e.type === 'turn.end') this.partial = '';
    else if (e.type === 'text.delta') this.partial += e.text;
    this.opts.hooks.event(e);
  }

  private switchTo(session: Session | undefined): void {
    const old = this.current;
    // New Chat keeps the plan toggle and the picked model as they were; a resumed session has its own stored ones.
    if (!session) {
      this.nextMode = old?.mode === 'plan' ? 'plan' : this.nextMode;
      this.nextChoice = { ...(old?.modelChoice ?? this.nextChoice) };
      this.nextAgent = old ? (old.customAgent?.name ?? null) : this.nextAgent;
    }
    this.current = session;
    this.partial = '';
    this.release(old);
    this.opts.hooks.sessionChanged();
  }

  /**
   * Stops the running turn and waits for its end: its cancelled round stored and its turn.end
   * reported to the session it belongs to, so the chat after it starts idle. A turn that has not
   * ended within stopWaitMs is detached: it finishes unseen, and the next turn is not refused
   * because of it.
   */
  private async stopTurn(): Promise<void> {
    this.compacting?.abort();
    const turn = this.running;
    if (!turn) return;
    turn.abort();
    const ms = this.opts.stopWaitMs ?? 5000;
    if ((await waitAtMost(this.turnEnded, ms)) || this.running !== turn) return;
    this.opts.logger.warn(`the stopped turn did not end within ${ms} ms; the chat goes on without it`);
    this.running = undefined;
    this.runningSession = undefined;
    this.opts.hooks.runningChanged(false);
  }

  /**
   * The chat left `old`: what is kept in memory for it goes (the repeat guard's reads, the prompt
   * cache, project context, and through the agent's onSessionReleased the host's browser page).
   * It is stored, so Resume opens it again. A session whose turn still runs is released when that
   * turn ends.
   */
  private release(old: Session | undefined): void {
    if (!old || old === this.current || old === this.runningSession) return;
    this.agent?.releaseSession(old.id);
  }
}

/** Whether `p` settled within `ms`. */
async function waitAtMost(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([p.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  clearTimeout(timer);
  return settled;
}
