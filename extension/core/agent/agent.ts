import type { AttachmentStore } from '../images/store';
import { deleteSessionWithAttachments } from '../images/session-refs';
import type { ModelChoice } from '../model/types';
import { pruneOldScratch, removeSessionScratch } from '../tools/exec/scratch';
import { modeTools } from '../tools/modes';
import { roleNames } from '../tools/roles';
import type { ChildOutcome } from '../tools/core/delegate-task';
import type { Disposable } from '../conversation/emitter';
import type { TodoItem } from '../conversation/events';
import { userMessageIndex, type ContentPart, type Message } from '../conversation/messages';
import { closeOrphanCalls } from '../conversation/orphans';
import { Session, type Mode } from '../conversation/session';
import type { CompactionOutcome } from '../context/compaction/compactor';
import { ownText, type ComposedPrompt, type ComposeInput } from '../input/compose';
import { findAgent, type WorkspaceLibrary } from '../library';
import type { DuringTurnMessage, TurnResult } from './loop';
import type { AgentOptions, AgentStore, SendHooks, SendResult } from './agent-options';
import { createAgentParts, type AgentParts } from './agent-parts';
import { asSessionAgent, childSession, toolCounts, type ChildRequest } from './child-session';
import { composeTurn } from './compose-turn';
import { loadStoredSession, storeNewSession } from './stored-session';
import { sessionToolContext } from './tool-context';

export type { AgentOptions, AgentStore, SendHooks, SendResult } from './agent-options';
export { userMessageIndex } from '../conversation/messages';

/**
 * The agent core as the host and the CLI use it: sessions (stored in state.db), the loop, the
 * tool runtime with the repeat guard and deferred tools, the prompt builder, compaction and the
 * budget. Its parts are wired once (agent-parts.ts) and private; what they keep per session lives
 * in one SessionStates, released in one place (releaseSession).
 */
export class Agent implements Disposable {
  private readonly parts: AgentParts;
  readonly onEvent: AgentParts['loop']['onEvent'];
  /** The attachment store every image of this agent's sessions goes through. */
  readonly attachments: AttachmentStore;
  /** Slash commands, custom agents, skills and instruction files of the workspace and the user. */
  readonly library: WorkspaceLibrary;

  constructor(private readonly opts: AgentOptions) {
    // Full outputs of sessions untouched for a week go (their sessions keep the capped text the model saw).
    void pruneOldScratch(opts.scratchRoot).catch((e: Error) => opts.logger.warn(`could not clean old scratch folders: ${e.message}`));
    this.parts = createAgentParts(opts, {
      runChild: (parentId, req, signal) => this.runChild(parentId, req, signal),
      toolContext: (session, signal, onOutput) =>
        sessionToolContext({ ...this.parts, opts, setMode: (s, m) => this.setMode(s, m), setTodos: (s, t) => this.setTodos(s, t) }, session, signal, onOutput),
    });
    ({ attachments: this.attachments, library: this.library } = this.parts);
    this.onEvent = this.parts.loop.onEvent;
  }

  newSession(init: { mode?: Mode; role?: string; parentId?: string; title?: string; modelChoice?: ModelChoice } = {}): Session {
    const session = new Session({ workspaceRoot: this.opts.workspaceRoot, ...init });
    storeNewSession(this.opts.store, session);
    this.parts.live.set(session.id, session);
    return session;
  }

  /** A user's message as the loop takes it (compose-turn.ts). What `send` sends; tests compose alone to look at the result. */
  compose(input: ComposeInput, signal?: AbortSignal): Promise<ComposedPrompt> {
    return composeTurn(input, { opts: this.opts, ...this.parts }, signal);
  }

  /** Resumes a stored session: the next turn continues with the full stored transcript. */
  openSession(id: string): Session | undefined {
    const live = this.parts.live.get(id);
    if (live) return live;
    const session = loadStoredSession(this.opts.store, id);
    if (!session) return undefined;
    this.restoreAgent(session);
    const { sink } = this.parts;
    // A round a crash or a closed window interrupted can end in a call without its result: store one.
    if (closeOrphanCalls(session, sink)) {
      this.opts.logger.info(`session ${id}: a tool call interrupted earlier was marked as interrupted`);
      void Promise.resolve(sink?.commitRound()).catch((e: Error) => this.opts.logger.warn(`could not save the interrupted call's result: ${e.message}`));
    }
    this.parts.live.set(id, session);
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
    this.parts.live.set(session.id, session);
    const before = session.loadedTools.length;
    // The checkpoint is taken while the first request is out (a large workspace's first one takes
    // seconds); no tool runs before it is done, and the turn ends only once it is recorded.
    const checkpoint = session.isSubagent ? undefined : this.opts.checkpoints?.atTurnStart(session.id, session.turn + 1, signal);
    try {
      return await this.parts.loop.runTurn(session, prompt, signal, { ...(title === undefined ? {} : { title }), ...(checkpoint ? { beforeTools: checkpoint } : {}), ...(duringTurn ? { duringTurn } : {}) });
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
    this.parts.loop.notify(session, { type: 'mode', sessionId: session.id, mode });
  }

  /**
   * The chat's agent (the composer's agent picker, `/agent NAME`): a custom agent of the library by
   * name, its file read now under today's trust (its instructions in the system prompt, its tool
   * list only narrowing), stored as the session's role; null: Snowpea's own. False (nothing changed)
   * for a subagent or a name the library does not have.
   */
  setAgent(session: Session, name: string | null): boolean {
    if (session.isSubagent) return false;
    const found = name === null ? undefined : findAgent(this.library.agents(), name);
    if (name !== null && !found) return false;
    session.customAgent = found && asSessionAgent(found);
    session.role = found?.name ?? 'default';
    this.opts.store?.updateSession(session.id, { role: session.role });
    return true;
  }

  /** The custom agents the chat can run as (the picker's list): name and description. */
  agents(): Array<{ name: string; description: string }> {
    return this.library.agents().map((a) => ({ name: a.name, description: a.description }));
  }

  /** A stored session that ran as a custom agent runs as it again, its file read now; a file gone or no longer trusted: Snowpea's own, said in the log. */
  private restoreAgent(session: Session): void {
    if (session.role === 'default' || roleNames().includes(session.role)) return;
    const found = findAgent(this.library.agents(), session.role);
    if (found) session.customAgent = asSessionAgent(found);
    else {
      this.opts.logger.info(`session ${session.id} ran as the ${session.role} agent, which is not found now (its file gone, or the workspace not trusted); it continues as Snowpea`);
      session.role = 'default';
    }
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
    this.parts.loop.notify(session, { type: 'todos', sessionId: session.id, todos: session.todos });
  }

  /**
   * Compacts a session between turns (/compact, `snowpea sessions compact`): the model summarizes
   * the conversation and later requests carry the summary; undefined when there is nothing to
   * compact yet. Throws ModelError('cancelled') when `signal` aborts.
   */
  async compact(session: Session, focus: string | undefined, signal: AbortSignal): Promise<CompactionOutcome | undefined> {
    this.parts.live.set(session.id, session);
    return this.parts.loop.compact(session, focus, signal);
  }

  /** The model's context window as compaction counts it (a provider's stated window replaces the believed one). */
  contextWindow(): number {
    return this.parts.compactor.window();
  }

  /** A write or edit through Snowpea, an editor change or a change on disk: the repeat guard forgets what was read there. */
  invalidatePath(realPath: string): void {
    this.parts.runtime.invalidatePath(realPath);
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
    this.parts.sink?.appendMessage(session.id, { turn: session.turn, round: session.round, message });
    await this.parts.sink?.commitRound();
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
   * Drops everything kept in memory for a session the user left, a finished subagent or a deleted
   * session, from every part at once (SessionStates), then tells opts.onSessionReleased (the host
   * and the CLI close its browser page); state.db keeps it, so it can be opened again.
   */
  releaseSession(id: string): void {
    this.parts.states.release(id);
  }

  /** The parts that still keep something for a session, by name (tests: empty after releaseSession). */
  heldFor(id: string): string[] {
    return this.parts.states.holding(id);
  }

  /**
   * delegate_task: a child session through the same loop, stored linked to its parent, with
   * an empty history and the task as its only user message. Cancelling the parent's signal
   * cancels the child.
   */
  async runChild(parentId: string, req: ChildRequest, signal: AbortSignal): Promise<ChildOutcome> {
    const parent = this.parts.live.get(parentId);
    // A custom agent (its file read again now, under today's trust): its instructions and tool limits; never a built-in's name.
    const custom = roleNames().includes(req.agent) ? undefined : findAgent(this.library.agents(), req.agent);
    if (custom?.maxRounds) req = { ...req, maxRounds: Math.min(req.maxRounds, custom.maxRounds) };
    const child = childSession(parentId, parent, req, custom, this.opts.workspaceRoot);
    storeNewSession(this.opts.store, child);
    this.parts.live.set(child.id, child);
    try {
      const result = await this.parts.loop.runTurn(child, req.task, signal, { maxRounds: req.maxRounds });
      return { text: result.text, reason: result.reason, rounds: result.rounds, toolCounts: toolCounts(child.messages), childSessionId: child.id };
    } finally {
      this.releaseSession(child.id);
    }
  }

  dispose(): void {
    for (const d of this.parts.disposables) d.dispose();
    this.parts.loop.dispose();
  }
}
