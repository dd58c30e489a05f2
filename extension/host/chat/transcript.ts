import { isTurnPrompt, type Message } from '../../core/conversation/messages';
import { typedText } from '../../core/input/compose';
import type { TranscriptEntry } from '../../protocol';
import { TOOL } from '../../core/tools/names';
import { callSummary, resultSummary } from '../../core/tools/card-summary';
import { displayView, isCompaction, type CompactionMessage } from '../../core/context/compaction/view';

type ToolEntry = Extract<TranscriptEntry, { role: 'tool' }>;
type ToolMessage = Extract<Message, { role: 'tool' }>;
type CompactionEntry = Extract<TranscriptEntry, { role: 'compaction' }>;

/**
 * The stored transcript as the webview replays it, as the live view showed it: what the user
 * typed with their images (not the files an `@path` inlined, nor the notes about refused
 * attachments), text, tool cards (title and summary as the live events had them, card-summary.ts)
 * with the result the model saw, after a card the chip of the deferred tools that call loaded
 * (the tool message's `loadedTools`), and a compaction's divider where it happened. Messages a
 * rewind took back are left out; each user message keeps its turn number over the whole transcript.
 */
export function toTranscript(messages: Message[]): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  const calls = new Map<string, ToolEntry>();
  const loaded = new Map<ToolEntry, string[]>();
  const turns = userTurns(messages);
  for (const m of displayView(messages)) {
    if (m.role === 'user') {
      if (isCompaction(m)) out.push(compactionEntry(m));
      if (m.attachedBy) continue;
      const images = typeof m.content === 'string' ? [] : m.content.flatMap((p) => (p.type === 'image' ? [{ name: p.name, mime: p.mime, width: p.width, height: p.height }] : []));
      out.push({ role: 'user', text: typedText(m.content), ...(images.length ? { images } : {}), ...(m.duringTurn ? { duringTurn: true } : { turn: turns.get(m) }) });
    } else if (m.role === 'assistant') {
      const reasoning = m.reasoning?.text;
      if (m.content || reasoning) out.push({ role: 'assistant', text: m.content, ...(reasoning ? { reasoning } : {}) });
      for (const c of m.toolCalls ?? []) {
        // The title as the live card had it (stored with the call); a call stored before titles were shows its name.
        const title = c.title ?? c.name;
        const entry: ToolEntry = { role: 'tool', callId: c.id, tool: c.name, args: c.arguments, title, summary: callSummary({ ...c, title }) };
        calls.set(c.id, entry);
        out.push(entry);
      }
    } else {
      const entry = calls.get(m.toolCallId);
      if (!entry) continue;
      Object.assign(entry, { result: m.content, ok: m.ok, summary: resultSummary(m.content), ...(m.errorCode ? { errorCode: m.errorCode } : {}) });
      const tools = m.loadedTools ?? toolsLoadedBy(m);
      if (tools.length) loaded.set(entry, tools);
    }
  }
  if (!loaded.size) return out;
  return out.flatMap((e): TranscriptEntry[] => {
    const tools = e.role === 'tool' ? loaded.get(e) : undefined;
    return tools ? [e, { role: 'tools.loaded', tools }] : [e];
  });
}

/** The turn of each of the user's own messages: counted from 1 as Session.turn counts them (attachments, compactions and rewinds left out). */
function userTurns(messages: readonly Message[]): Map<Message, number> {
  const turns = new Map<Message, number>();
  for (const m of messages) if (isTurnPrompt(m)) turns.set(m, turns.size + 1);
  return turns;
}

/** Where the summary starts in a stored compaction's content (after the head requests carry, instruction.ts summaryMessage). */
const SUMMARY_HEAD = /^\[Summary of the conversation so far[:,][^\n]*\]\n\n/;

/** The divider of a stored compaction, as the live `compaction` event drew it. */
function compactionEntry(m: CompactionMessage): CompactionEntry {
  const r = m.compaction;
  const summary = r.trigger === 'fallback' ? '' : typedText(m.content).replace(SUMMARY_HEAD, '');
  return { role: 'compaction', trigger: r.trigger, tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter, rounds: r.rounds, summary, ...(r.focus ? { focus: r.focus } : {}) };
}

/**
 * Only for a tool message without `loadedTools` (results stored before the field was recorded;
 * a newer result without it loaded nothing, and its text says none of these words): the deferred
 * tools its text says its call loaded. A tool_search that loaded some (`loaded a, b; callable
 * from your next round`, tools/core/tool-search.ts), or a deferred tool called directly, which loads
 * itself (`loaded <tool> for this session` appended to its result, tools/runtime.ts).
 * `already loaded: …` loaded nothing.
 */
export function toolsLoadedBy(m: ToolMessage): string[] {
  if (m.toolName === TOOL.tool_search) {
    if (!m.ok) return [];
    const head = /^loaded (.+); callable from your next round$/.exec(m.content.split('\n', 1)[0]);
    return head ? head[1].split(', ') : [];
  }
  return m.content.endsWith(`\nloaded ${m.toolName} for this session`) ? [m.toolName] : [];
}
