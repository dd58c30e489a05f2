import type { Message } from '../core/agent/messages';
import { typedText } from '../core/images/compose';
import type { TranscriptEntry } from '../protocol';
import { TOOL } from '../core/tools/names';

type ToolEntry = Extract<TranscriptEntry, { role: 'tool' }>;
type ToolMessage = Extract<Message, { role: 'tool' }>;

/**
 * The stored transcript as the webview replays it, as the live view showed it: what the user
 * typed with their images (not the files an `@path` inlined, nor the notes about refused
 * attachments), text, tool cards with the result the model saw, and after a card the chip of
 * the deferred tools that call loaded.
 */
export function toTranscript(messages: Message[]): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  const calls = new Map<string, ToolEntry>();
  const loaded = new Map<ToolEntry, string[]>();
  for (const m of messages) {
    if (m.role === 'user') {
      if (m.attachedBy) continue;
      const images = typeof m.content === 'string' ? [] : m.content.flatMap((p) => (p.type === 'image' ? [{ name: p.name, mime: p.mime, width: p.width, height: p.height }] : []));
      out.push({ role: 'user', text: typedText(m.content), ...(images.length ? { images } : {}) });
    } else if (m.role === 'assistant') {
      if (m.content) out.push({ role: 'assistant', text: m.content });
      for (const c of m.toolCalls ?? []) {
        const entry: ToolEntry = { role: 'tool', callId: c.id, tool: c.name, args: c.arguments, summary: c.name };
        calls.set(c.id, entry);
        out.push(entry);
      }
    } else {
      const entry = calls.get(m.toolCallId);
      if (!entry) continue;
      Object.assign(entry, { result: m.content, ok: m.ok, summary: m.content.split('\n', 1)[0].slice(0, 200), ...(m.errorCode ? { errorCode: m.errorCode } : {}) });
      const tools = toolsLoadedBy(m);
      if (tools.length) loaded.set(entry, tools);
    }
  }
  if (!loaded.size) return out;
  return out.flatMap((e): TranscriptEntry[] => {
    const tools = e.role === 'tool' ? loaded.get(e) : undefined;
    return tools ? [e, { role: 'tools.loaded', tools }] : [e];
  });
}

/**
 * The deferred tools a stored result says its call loaded: a tool_search that loaded some
 * (`loaded a, b; callable from your next round`, tools/tool-search.ts), or a deferred tool
 * called directly, which loads itself (`loaded <tool> for this session` appended to its result,
 * tools/runtime.ts). `already loaded: …` loaded nothing.
 */
export function toolsLoadedBy(m: ToolMessage): string[] {
  if (m.toolName === TOOL.tool_search) {
    if (!m.ok) return [];
    const head = /^loaded (.+); callable from your next round$/.exec(m.content.split('\n', 1)[0]);
    return head ? head[1].split(', ') : [];
  }
  return m.content.endsWith(`\nloaded ${m.toolName} for this session`) ? [m.toolName] : [];
}
