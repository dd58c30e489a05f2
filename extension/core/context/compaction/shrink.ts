import type { Message } from '../../conversation/messages';
import { oldCallArgsStubFor } from '../prune';

/** A tool result in a cut-down summary request keeps this many characters from its start. */
const RESULT_CHARS = 2_000;

function shortened(m: Message): Message {
  // A whole file passed to write_file becomes a note (paths and flags stay), as in an old round.
  if (m.role === 'assistant') return oldCallArgsStubFor(m);
  if (m.role === 'tool' && m.content.length > RESULT_CHARS) {
    return { ...m, content: `${m.content.slice(0, RESULT_CHARS)}\n[… ${m.content.length - RESULT_CHARS} more characters left out of the summary request]` };
  }
  if (m.role === 'user' && typeof m.content !== 'string' && m.content.some((p) => p.type === 'image')) {
    return { ...m, content: m.content.map((p) => (p.type === 'image' ? { type: 'text' as const, text: `[image: ${p.name}]` } : p)) };
  }
  return m;
}

/**
 * A summary request that would not fit the window is cut down ("compact harder"): tool results
 * shortened, large tool-call arguments replaced by a note, images named instead of sent, then the oldest rounds left out (a leading summary of
 * an earlier compaction stays) until `fits` says it fits.
 */
export function shrinkForSummary(messages: readonly Message[], fits: (m: Message[]) => boolean): Message[] {
  let out = messages.map(shortened);
  const head = out[0]?.role === 'user' && out[0].attachedBy === 'compaction' ? 1 : 0;
  let dropped = 0;
  while (!fits(out)) {
    // Leave out everything up to the next round's start, so no result loses its call.
    let next = head + 1;
    while (next < out.length && out[next].role !== 'assistant') next++;
    if (next >= out.length - 1) break;
    dropped += next - head;
    out = [...out.slice(0, head), ...out.slice(next)];
  }
  if (!dropped) return out;
  const note: Message = { role: 'user', content: `[${dropped} older messages left out of this summary request; they are stored]` };
  return [...out.slice(0, head), note, ...out.slice(head)];
}
