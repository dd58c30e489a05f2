import type { WireContentPart, WireMessage } from '../model/types';
import type { ContentPart, ImageRef, Message } from './messages';

/** Turns an image reference into what the request carries: a data URL, or null when the model has no vision. */
export type ImageResolver = (img: ImageRef) => string | null;

export function noVisionMarker(img: ImageRef): string {
  return `[image: ${img.name}, ${img.width}x${img.height}, not sent: model has no vision]`;
}

function userContent(content: string | ContentPart[], resolve?: ImageResolver): string | WireContentPart[] {
  if (typeof content === 'string') return content;
  const parts: WireContentPart[] = content.map((p) => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    const url = resolve?.(p) ?? null;
    return url ? { type: 'image_url', image_url: { url } } : { type: 'text', text: noVisionMarker(p) };
  });
  return parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('\n') : parts;
}

/** Converts the stored transcript (or a pruned copy of it) into the Chat Completions wire shape. */
export function toWireMessages(system: string, messages: Message[], resolve?: ImageResolver): WireMessage[] {
  const out: WireMessage[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: userContent(m.content, resolve) });
    else if (m.role === 'assistant') {
      const msg: WireMessage = { role: 'assistant', content: m.content || null };
      if (m.toolCalls?.length) {
        msg.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
      }
      out.push(msg);
    } else out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
  }
  return out;
}
