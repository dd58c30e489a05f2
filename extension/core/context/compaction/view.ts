import type { CompactionRecord, Message } from '../../agent/messages';

export type CompactionMessage = Extract<Message, { role: 'user' }> & { compaction: CompactionRecord };

export function isCompaction(m: Message): m is CompactionMessage {
  return m.role === 'user' && m.attachedBy === 'compaction' && !!m.compaction;
}

/** The latest compaction in a transcript and where it is; undefined when there was none. */
export function latestCompaction(messages: readonly Message[]): { index: number; message: CompactionMessage } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (isCompaction(m)) return { index: i, message: m };
  }
  return undefined;
}

/**
 * The messages a request is built from: the whole transcript until the first compaction; after
 * one, its summary message, the pinned prompt of the turn it happened in, and the messages from
 * its cut on (other compaction messages left out). The elements are the transcript's own objects,
 * so the view of a growing transcript only grows (the prune cache relies on it).
 */
export function requestView(messages: readonly Message[]): Message[] {
  const latest = latestCompaction(messages);
  if (!latest) return messages as Message[];
  const { cut, pinned } = latest.message.compaction;
  const out: Message[] = [latest.message];
  if (pinned !== undefined && pinned < cut && messages[pinned]) out.push(messages[pinned]);
  for (let i = cut; i < messages.length; i++) if (!isCompaction(messages[i])) out.push(messages[i]);
  return out;
}

/** Whether the call's result is still in the request after the latest compaction (the repeat guard asks). */
export function callSurvivesCompaction(messages: readonly Message[], callId: string): boolean {
  const latest = latestCompaction(messages);
  if (!latest) return true;
  for (let i = latest.message.compaction.cut; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'assistant' && m.toolCalls?.some((c) => c.id === callId)) return true;
  }
  return false;
}
