import type { Message } from '../core/agent/messages';
import type { TranscriptEntry } from '../protocol';

/** The stored transcript as the webview replays it (text, tool cards with the result the model saw). */
export function toTranscript(messages: Message[]): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  const calls = new Map<string, Extract<TranscriptEntry, { role: 'tool' }>>();
  for (const m of messages) {
    if (m.role === 'user') {
      if (m.attachedBy) continue;
      const text = typeof m.content === 'string' ? m.content : m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      const images = typeof m.content === 'string' ? [] : m.content.flatMap((p) => (p.type === 'image' ? [{ name: p.name, mime: p.mime, width: p.width, height: p.height }] : []));
      out.push({ role: 'user', text, ...(images.length ? { images } : {}) });
    } else if (m.role === 'assistant') {
      if (m.content) out.push({ role: 'assistant', text: m.content });
      for (const c of m.toolCalls ?? []) {
        const entry: Extract<TranscriptEntry, { role: 'tool' }> = { role: 'tool', callId: c.id, tool: c.name, args: c.arguments, summary: c.name };
        calls.set(c.id, entry);
        out.push(entry);
      }
    } else {
      const entry = calls.get(m.toolCallId);
      if (entry) Object.assign(entry, { result: m.content, ok: m.ok, summary: m.content.split('\n', 1)[0].slice(0, 200), ...(m.errorCode ? { errorCode: m.errorCode } : {}) });
    }
  }
  return out;
}
