import type { CompactionRecord, Message, RewindRecord } from '../../conversation/messages';
import { typedText } from '../../input/compose';

export type CompactionMessage = Extract<Message, { role: 'user' }> & { compaction: CompactionRecord };
export type RewindMessage = Extract<Message, { role: 'user' }> & { rewind: RewindRecord };

export function isCompaction(m: Message): m is CompactionMessage {
  return m.role === 'user' && m.attachedBy === 'compaction' && !!m.compaction;
}

export function isRewind(m: Message): m is RewindMessage {
  return m.role === 'user' && m.attachedBy === 'rewind' && !!m.rewind;
}

/** A message of the view, with its index in the transcript. */
export interface ViewEntry {
  index: number;
  message: Message;
}

/** One of the user's own messages (not one the loop added: tool images, compactions, rewinds). */
function ownUserMessage(m: Message): boolean {
  return m.role === 'user' && !m.attachedBy;
}

/** Each earlier message of the user's, as compacted requests carry it: the words they typed (inlined files and images left out), one object per message. */
const typedCopies = new WeakMap<Message, Message>();
function typedWords(m: Message): Message {
  if (m.role !== 'user' || typeof m.content === 'string') return m;
  let copy = typedCopies.get(m);
  if (!copy) typedCopies.set(m, (copy = { role: 'user', content: typedText(m.content) }));
  return copy;
}

/**
 * The messages a request is built from, with their transcript indexes: the transcript read in
 * order, where a compaction message replaces what came before its cut (placed after the user's own earlier messages) and a rewind goes back to
 * the view as it was before its target message. A compaction keeps every message the user wrote
 * before its cut (red team N10: a summary the model wrote must not stand in for the user's own
 * instructions): the pinned prompt whole, the earlier ones as the words typed. The elements are
 * the transcript's own objects (or one stable copy each), so the view of a growing transcript only
 * grows (the prune cache relies on it).
 */
export function viewEntries(messages: readonly Message[], end = messages.length): ViewEntry[] {
  let view: ViewEntry[] = [];
  for (let i = 0; i < end; i++) {
    const m = messages[i];
    if (isCompaction(m)) {
      const { cut, pinned } = m.compaction;
      const own = view
        .filter((e) => e.index < cut && ownUserMessage(e.message))
        .map((e) => (e.index === pinned ? e : { index: e.index, message: typedWords(e.message) }))
        .filter((e) => typeof e.message.content !== 'string' || e.message.content.trim() !== '');
      // The user's own words first, then the model's summary of its rounds (sent as the model's message: red team N10).
      view = [...own, { index: i, message: m }, ...view.filter((e) => e.index >= cut && !isCompaction(e.message))];
    } else if (isRewind(m)) view = viewEntries(messages, Math.min(m.rewind.to, i));
    else view.push({ index: i, message: m });
  }
  return view;
}

export function requestView(messages: readonly Message[]): Message[] {
  const view = viewEntries(messages);
  return view.length === messages.length ? (messages as Message[]) : view.map((e) => e.message);
}

/** The latest compaction still in the view (after the user's own earlier messages; a view holds at most one); undefined when there is none. */
export function viewCompaction(view: readonly ViewEntry[]): CompactionMessage | undefined {
  return view.map((e) => e.message).find(isCompaction);
}

/** Whether the call's result is still in the request (not summarized by a compaction, not rewound): the repeat guard asks. */
export function callInView(messages: readonly Message[], callId: string): boolean {
  return viewEntries(messages).some((e) => e.message.role === 'assistant' && !!e.message.toolCalls?.some((c) => c.id === callId));
}

/**
 * What the chat shows: every message, compactions in place (as dividers), rewound messages left
 * out (a rewind goes back to before its target; later messages follow).
 */
export function displayView(messages: readonly Message[]): Message[] {
  let out: ViewEntry[] = [];
  messages.forEach((m, index) => {
    if (isRewind(m)) out = out.filter((e) => e.index < m.rewind.to);
    else out.push({ index, message: m });
  });
  return out.map((e) => e.message);
}
