/**
 * Tool calls without a result. A session that stopped in the middle of a round (a crash, a
 * window closed while a tool ran, a store written by an older version) can hold an assistant
 * tool call with no tool message after it; strict providers reject every later request that
 * carries one (HTTP 400). Such a call gets a synthetic result saying it was interrupted: stored
 * when the session is resumed, and added to every request in any case.
 */
import type { Message, ToolCall } from './messages';
import type { Session } from './session';

export const INTERRUPTED_CODE = 'interrupted';
export const INTERRUPTED_TEXT =
  'error (interrupted): the session stopped before this call finished; it did not complete (or its result was lost). Check the state before repeating it.';

export function interruptedResult(call: Pick<ToolCall, 'id' | 'name'>): Extract<Message, { role: 'tool' }> {
  return { role: 'tool', toolCallId: call.id, toolName: call.name, ok: false, content: INTERRUPTED_TEXT, errorCode: INTERRUPTED_CODE };
}

/**
 * The calls of the transcript's last tool-calling assistant message that have no result, when
 * nothing but tool results follows it (the shape an interrupted round leaves). Calls further back
 * that lack a result (followed by later messages) are only repaired in requests, see pairToolResults.
 */
export function trailingOrphanCalls(messages: readonly Message[]): ToolCall[] {
  let i = messages.length - 1;
  const answered: string[] = [];
  while (i >= 0 && messages[i]!.role === 'tool') answered.push((messages[i--] as Extract<Message, { role: 'tool' }>).toolCallId);
  const m = messages[i];
  if (!m || m.role !== 'assistant' || !m.toolCalls?.length) return [];
  return unanswered(m.toolCalls, answered);
}

/** The calls not answered by `answered` (each result answers one call; ids may repeat). */
function unanswered(calls: readonly ToolCall[], answered: readonly string[]): ToolCall[] {
  const left = [...answered];
  return calls.filter((c) => {
    const k = left.indexOf(c.id);
    if (k < 0) return true;
    left.splice(k, 1);
    return false;
  });
}

/** Where closeOrphanCalls stores what it adds: the TranscriptSink's appendMessage (all of the sink it needs). */
export interface OrphanResultSink {
  appendMessage(sessionId: string, entry: { turn: number; round: number; message: Message }): unknown;
}

/**
 * Stores an interrupted result for each trailing orphan call of the session (in memory and
 * through the sink), so the stored transcript and every later request agree. Returns how many.
 */
export function closeOrphanCalls(session: Session, sink: OrphanResultSink | undefined): number {
  const orphans = trailingOrphanCalls(session.messages);
  for (const call of orphans) {
    const message = interruptedResult(call);
    session.messages.push(message);
    sink?.appendMessage(session.id, { turn: session.turn, round: session.round, message });
  }
  return orphans.length;
}

/**
 * The transcript as a provider accepts it: each tool-calling assistant message directly followed
 * by one result per call (an interrupted result where none was stored), and no result that
 * answers no call. Returns the input array itself when nothing needed changing.
 */
export function pairToolResults(messages: readonly Message[]): readonly Message[] {
  const out: Message[] = [];
  let open: ToolCall[] = [];
  let changed = false;
  const closeOpen = () => {
    if (open.length) changed = true;
    for (const c of open) out.push(interruptedResult(c));
    open = [];
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      const k = open.findIndex((c) => c.id === m.toolCallId);
      if (k < 0) {
        changed = true; // a result for no pending call: strict providers refuse it
        continue;
      }
      open.splice(k, 1);
      out.push(m);
      continue;
    }
    closeOpen();
    out.push(m);
    if (m.role === 'assistant' && m.toolCalls?.length) open = [...m.toolCalls];
  }
  closeOpen();
  return changed ? out : messages;
}
