/**
 * Turns an MCP tools/call result into a ToolResult: text blocks as text, image blocks (and image
 * resources) through the attachment store so the loop attaches the picture after the round,
 * other resources as their text or a one-line note, and `isError` results as a tool error
 * carrying the server's own message.
 */
import type { ImageRef } from '../conversation/messages';
import { capText } from '../tools/exec/cap-text';
import { errorResult, okResult, type ToolContext, type ToolResult } from '../tools/types';
import { sanitizeNamePart } from './names';

/** The parts of a CallToolResult this reads (the SDK's type, loosely: servers send what they send). */
export interface McpCallResult {
  content?: Array<Record<string, unknown>>;
  structuredContent?: unknown;
  isError?: boolean;
  toolResult?: unknown;
}

export interface ResultContext {
  server: string;
  tool: string;
  ctx: ToolContext;
}

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/jpg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

function kb(b64: string): string {
  return `${Math.max(1, Math.round((b64.length * 3) / 4 / 1024))} KB`;
}

async function attachImage(data: string, mime: string, name: string, rc: ResultContext, images: ImageRef[]): Promise<string | undefined> {
  const store = rc.ctx.attachments;
  if (!store) return `[image: ${name}, ${mime}, not attached: this session keeps no images]`;
  try {
    images.push(await store.addBase64(data, { name, mime, source: `mcp:${rc.server}`, signal: rc.ctx.signal }));
    return undefined;
  } catch (e) {
    return `[image ${name} could not be attached: ${(e as Error).message}]`;
  }
}

async function blockText(b: Record<string, unknown>, rc: ResultContext, images: ImageRef[]): Promise<string | undefined> {
  const imageName = (mime: string) => `${rc.server}-${rc.tool}-${images.length + 1}.${EXT[mime] ?? 'img'}`;
  switch (b.type) {
    case 'text':
      return String(b.text ?? '');
    case 'image': {
      const mime = String(b.mimeType ?? 'image/png');
      return attachImage(String(b.data ?? ''), mime, imageName(mime), rc, images);
    }
    case 'audio':
      return `[audio: ${String(b.mimeType ?? 'audio')}, ${kb(String(b.data ?? ''))}, not shown]`;
    case 'resource': {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      const mime = typeof r.mimeType === 'string' ? r.mimeType : undefined;
      if (typeof r.text === 'string') return `[resource ${String(r.uri)}${mime ? ` (${mime})` : ''}]\n${r.text}`;
      if (typeof r.blob === 'string' && mime && EXT[mime]) return attachImage(r.blob, mime, imageName(mime), rc, images);
      return `[resource ${String(r.uri)}: ${mime ?? 'binary'}, ${kb(String(r.blob ?? ''))}, not shown]`;
    }
    case 'resource_link': {
      const what = [b.name, b.mimeType].filter((x) => typeof x === 'string').join(', ');
      const desc = typeof b.description === 'string' ? `: ${b.description}` : '';
      return `[resource link ${String(b.uri)}${what ? ` (${what})` : ''}${desc}]`;
    }
    default:
      return `[${String(b.type)} content, not shown]`;
  }
}

export async function toToolResult(r: McpCallResult, rc: ResultContext): Promise<ToolResult> {
  const images: ImageRef[] = [];
  const parts: string[] = [];
  for (const b of Array.isArray(r.content) ? r.content : []) {
    const t = await blockText(b ?? {}, rc, images);
    if (t !== undefined && t !== '') parts.push(t);
  }
  if (!parts.length && !images.length && r.structuredContent !== undefined) parts.push(JSON.stringify(r.structuredContent, null, 1));
  if (!parts.length && !images.length && r.toolResult !== undefined) parts.push(typeof r.toolResult === 'string' ? r.toolResult : JSON.stringify(r.toolResult));
  let text = parts.join('\n');
  if (r.isError) {
    return errorResult('failed', `the MCP server "${rc.server}" reported an error from ${rc.tool}: ${text.trim() || '(no message)'}`);
  }
  text = await capText(text, rc.ctx, `mcp-${sanitizeNamePart(rc.tool)}`);
  if (images.length) {
    const note = images.length === 1 ? `image attached: ${images[0].name}` : `${images.length} image(s) attached`;
    return okResult(text ? `${text}\n${note}` : note, { images });
  }
  return okResult(text || '(no output)');
}
