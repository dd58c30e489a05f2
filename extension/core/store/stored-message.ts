/**
 * How a message is kept in its row: a large content and large tool-call arguments (a whole file a
 * model writes) go to content files (content-files.ts), so state.db, its journal and sql.js's
 * memory hold them nowhere. The row keeps `content: null` (its ref in the row's columns) and, per
 * call, `arguments: null` with an `argumentsRef` beside it; loading puts the exact text back in
 * the same place, so a loaded message is the one appended, key order included.
 */
import type { Message, ToolCall } from '../conversation/messages';
import { encodesExactly, EXTERNAL_CONTENT_BYTES, type ContentFiles, type ContentRef } from './content-files';

/** Marks the tool-call JSON of a row that has externalised arguments (searched for at open). */
export const ARGUMENTS_REF_KEY = 'argumentsRef';

/** Reads a content file's text by its reference. */
export type ContentReader = (ref: ContentRef) => string;

type StoredCall = Omit<ToolCall, 'arguments'> & { arguments: string | null; argumentsRef?: ContentRef };

/** The UTF-8 bytes of `text` when it is large enough to live in a file, else null. */
function externalBytes(text: unknown): Buffer | null {
  if (typeof text !== 'string' || text.length * 3 < EXTERNAL_CONTENT_BYTES || !encodesExactly(text)) return null;
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length >= EXTERNAL_CONTENT_BYTES ? bytes : null;
}

/** The message as its row keeps it, and the ref of its content when that went to a file. */
export function toStored(message: Message, content: ContentFiles): { stored: Message; ref: ContentRef | null } {
  let stored: Message = message;
  let ref: ContentRef | null = null;
  const bytes = externalBytes(message.content);
  if (bytes) {
    ref = content.put(bytes);
    stored = { ...message, content: null } as unknown as Message;
  }
  if (message.role === 'assistant' && message.toolCalls?.some((c) => externalBytes(c.arguments))) {
    const toolCalls = message.toolCalls.map((c): StoredCall => {
      const args = externalBytes(c.arguments);
      return args ? { ...c, arguments: null, [ARGUMENTS_REF_KEY]: content.put(args) } : c;
    });
    stored = { ...stored, toolCalls } as unknown as Message;
  }
  return { stored, ref };
}

/** Puts externalised tool-call arguments back into a parsed row (in place). */
export function restoreArguments(message: { role?: string; toolCalls?: StoredCall[] }, readContent: ContentReader): void {
  if (message.role !== 'assistant' || !Array.isArray(message.toolCalls)) return;
  for (const c of message.toolCalls) {
    if (!c[ARGUMENTS_REF_KEY]) continue;
    c.arguments = readContent(c[ARGUMENTS_REF_KEY]);
    delete c[ARGUMENTS_REF_KEY];
  }
}

/** The content files a row's tool calls refer to. */
export function argumentRefs(body: string): string[] {
  try {
    const m = JSON.parse(body) as { toolCalls?: StoredCall[] };
    return (m.toolCalls ?? []).flatMap((c) => (c[ARGUMENTS_REF_KEY] ? [c[ARGUMENTS_REF_KEY].sha256] : []));
  } catch {
    return [];
  }
}
