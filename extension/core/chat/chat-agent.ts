import type { CompactionOutcome } from '../context/compaction/compactor';
import type { Disposable } from '../conversation/emitter';
import type { AgentEvent, TurnEndReason } from '../conversation/events';
import type { Mode, Session } from '../conversation/session';
import type { ComposeInput } from '../input/compose';
import type { ModelChoice } from '../model/types';

/**
 * What the chat controller needs of the agent: the host passes its Agent (core/agent/agent.ts),
 * which has all of this; tests may pass a fake. Kept narrow so nothing in core/chat imports the Agent.
 */
export interface ChatAgent {
  newSession(init?: { mode?: Mode; modelChoice?: ModelChoice }): Session;
  /** Changes a session's mode (stored; reported as a `mode` event). */
  setMode(session: Session, mode: Mode): void;
  /** Stores the model and effort the user picked for a session. */
  setModelChoice(session: Session, choice: ModelChoice): void;
  /** The custom agent a chat session runs as (null: Snowpea's own); false when there is no such agent. */
  setAgent(session: Session, name: string | null): boolean;
  /** The custom agents a chat can run as. */
  agents(): Array<{ name: string; description: string }>;
  /** A stored session (its transcript loaded), or undefined when there is none with that id. */
  openSession(id: string): Session | undefined;
  /** One turn of what the user wrote; `onProblems` hears what was not attached before the turn starts. */
  /** `duringTurn`: asked at each round boundary for the messages the user sent meanwhile (taken), appended after the round's results. */
  send(
    session: Session,
    input: ComposeInput,
    signal: AbortSignal,
    hooks?: { onProblems?(problems: string[]): void; duringTurn?(): Array<{ id: string; input: ComposeInput }> },
  ): Promise<{ reason: TurnEndReason }>;
  compact(session: Session, focus: string | undefined, signal: AbortSignal): Promise<CompactionOutcome | undefined>;
  /** Deletes a stored session with its children; false when there was none. */
  deleteSession(id: string): Promise<boolean>;
  /** Drops what is kept in memory for a session the chat left (state.db keeps it); the Agent's onSessionReleased closes its browser page. */
  releaseSession(id: string): void;
  onEvent(listener: (e: AgentEvent) => void): Disposable;
}

/** What the chat controller asks of its host (the VS Code window); everything the user sees goes through these. */
export interface ChatHooks {
  /** An event of the current session: its running turn's, a compaction's. */
  event(e: AgentEvent): void;
  /** A line for the user: a refusal, a failed turn, an image or path that was not attached. */
  error(message: string): void;
  /** A first send made a new session current: the view learns of it before any of its events. */
  sessionStarted(): Promise<void>;
  /** A turn started, or the running one ended (or was left behind). */
  runningChanged(running: boolean): void;
  /** The current session, or the one a turn runs in, changed. */
  sessionChanged(): void;
  /** Awaited before a turn or a compaction sends anything (the host loads the API key, asking to confirm a workspace-chosen origin). */
  beforeRequest(): Promise<void>;
  /** The current session's waiting messages changed (ChatController.queue() has them). */
  queueChanged?(): void;
  /** A turn ended and no waiting message follows it: the chat is idle (the host may tell a user who looks elsewhere). */
  idle?(reason: TurnEndReason): void;
}
