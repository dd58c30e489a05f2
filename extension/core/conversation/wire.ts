import type { WireContentPart, WireMessage } from '../model/types';
import { isTurnPrompt, type ContentPart, type ImageRef, type Message } from './messages';
import { pairToolResults } from './orphans';

/** Why an image the model could take is not in the request (its stored file is gone, say). */
export interface ImageNotSent {
  notSent: string;
}

/**
 * Turns an image reference into what the request carries: a data URL; null when the model has
 * no vision; or why else the picture is not sent. Both of the latter become a text marker.
 */
export type ImageResolver = (img: ImageRef) => string | null | ImageNotSent;

/** `[image: <name>, <w>x<h>, not sent: <reason>]`: the text the request carries instead of a picture. */
export function notSentMarker(img: ImageRef, reason: string): string {
  return `[image: ${img.name}, ${img.width}x${img.height}, not sent: ${reason}]`;
}

export function noVisionMarker(img: ImageRef): string {
  return notSentMarker(img, 'model has no vision');
}

function userContent(content: string | ContentPart[], resolve?: ImageResolver): string | WireContentPart[] {
  if (typeof content === 'string') return content;
  const parts: WireContentPart[] = content.map((p) => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    const r = resolve?.(p) ?? null;
    if (typeof r === 'string') return { type: 'image_url', image_url: { url: r } };
    return { type: 'text', text: r ? notSentMarker(p, r.notSent) : noVisionMarker(p) };
  });
  return parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('\n') : parts;
}

/**
 * Converts the stored transcript (or a pruned copy of it) into the Chat Completions wire shape.
 * A tool call without a result gets an interrupted one, so no request carries an orphan call.
 */
export function toWireMessages(system: string, messages: readonly Message[], resolve?: ImageResolver): WireMessage[] {
  const out: WireMessage[] = [{ role: 'system', content: system }];
  const paired = pairToolResults(messages);
  const toolTurn = toolTurns(paired);
  paired.forEach((m, i) => {
    // A compaction summary was written by the model: it goes as the model's message, never in the user's voice (red team N10).
    if (m.role === 'user' && m.attachedBy === 'compaction') out.push({ role: 'assistant', content: typeof m.content === 'string' ? m.content : userContent(m.content) as string });
    else if (m.role === 'user') out.push({ role: 'user', content: userContent(m.content, resolve) });
    else if (m.role === 'assistant') {
      const msg: WireMessage = { role: 'assistant', content: m.content || null };
      if (m.toolCalls?.length) {
        msg.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments }, ...(c.extra ? { extra: c.extra } : {}) }));
      }
      if (m.reasoning) msg.reasoning = { ...m.reasoning, toolTurn: toolTurn[i] ?? false };
      out.push(msg);
    } else out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
  });
  return out;
}

/**
 * For each message, whether its turn (the messages from one turn prompt of the user's to the
 * next; messages the loop added, such as tool images, and messages delivered during the turn belong
 * to the turn they are in) called tools.
 */
function toolTurns(messages: readonly Message[]): boolean[] {
  const out = new Array<boolean>(messages.length).fill(false);
  let start = 0;
  const close = (end: number) => {
    const called = messages.slice(start, end).some((m) => m.role === 'assistant' && !!m.toolCalls?.length);
    for (let i = start; i < end; i++) out[i] = called;
  };
  messages.forEach((m, i) => {
    if (isTurnPrompt(m) && i > start) {
      close(i);
      start = i;
    }
  });
  close(messages.length);
  return out;
}
