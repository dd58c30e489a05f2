/**
 * Where the agent asks for file checkpoints: one before each user message of a top-level
 * session (its turn number is the checkpoint's), and their removal with the session. The store
 * behind it (a shadow git repository outside the workspace) lives in core/checkpoints.
 */
export interface CheckpointSeam {
  /** Snapshots the workspace as it is before `turn` runs. Never rejects: a failure is logged and the turn goes on. */
  atTurnStart(sessionId: string, turn: number, signal: AbortSignal): Promise<void>;
  /** The turn atTurnStart began has ended (its edits are over: another process may restore the workspace now). */
  atTurnEnd?(sessionId: string): void;
  /** Drops the session's checkpoints (its session was deleted). Never rejects. */
  forget(sessionId: string): Promise<void>;
}
