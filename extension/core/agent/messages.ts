/** The stored transcript's message shapes. state.db keeps these verbatim; only the outgoing request is pruned. */

export interface ImageRef {
  type: 'image';
  /** Attachment-store id of the image; the bytes live beside state.db, never inline here. */
  imageId: string;
  name: string;
  mime: string;
  width: number;
  height: number;
}

export type ContentPart = { type: 'text'; text: string } | ImageRef;

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (a JSON string, possibly malformed). */
  arguments: string;
}

export type Message =
  /** `attachedBy` marks a user message the loop added to carry images from tools (view_image, screenshots). */
  | { role: 'user'; content: string | ContentPart[]; attachedBy?: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string; ok: boolean; content: string; errorCode?: string };

export function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : `[image: ${p.name}]`)).join('\n');
}
