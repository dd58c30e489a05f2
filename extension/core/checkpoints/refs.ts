/** The names of a session's checkpoints in the shadow repository: `refs/snowpea/<session>/<turn>`. */

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isSessionId(sessionId: string): boolean {
  return SESSION_ID.test(sessionId);
}

/** `sessionId`, or an error when it is not one. */
export function validSession(sessionId: string): string {
  if (!isSessionId(sessionId)) throw new Error(`not a session id: ${JSON.stringify(sessionId)}`);
  return sessionId;
}

/** The ref of the checkpoint taken before `turn` of the session. */
export function refName(sessionId: string, turn: number): string {
  validSession(sessionId);
  if (!Number.isInteger(turn) || turn < 1) throw new Error(`not a turn number: ${turn}`);
  return `refs/snowpea/${sessionId}/${turn}`;
}
