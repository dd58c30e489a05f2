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

/**
 * Stored arguments at least this large (UTF-8 bytes) are not kept in memory (reliability N15):
 * the call's `arguments` becomes an accessor that reads the content file each time (a request
 * that still carries them, an export), so a 20 MB write_file costs memory only while it is used.
 * Smaller ones (an ordinary edit) stay as strings: reading them back every request would cost more than they hold.
 */
export const RELEASED_ARGUMENT_BYTES = 64 * 1024;

/** Reads a content file's text by its reference. */
export type ContentReader = (ref: ContentRef) => string;

type StoredCall = Omit<ToolCall, 'arguments'> & { arguments: string | null; argumentsRef?: ContentRef };

/** The UTF-8 bytes of `text` when it is large enough to live in a file, else null. */
function externalBytes(text: unknown): Buffer | null {
  if (typeof text !== 'string' || text.length * 3 < EXTERNAL_CONTENT_BYTES || !encodesExactly(text)) return null;
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length >= EXTERNAL_CONTENT_BYTES ? bytes : null;
}

/**
 * The message as its row keeps it, the ref of its content when that went to a file, and the calls
 * whose arguments went to one (with their refs).
 */
export function toStored(message: Message, content: ContentFiles): { stored: Message; ref: ContentRef | null; argumentRefs: Array<{ call: ToolCall; ref: ContentRef }> } {
  let stored: Message = message;
  let ref: ContentRef | null = null;
  const argumentRefs: Array<{ call: ToolCall; ref: ContentRef }> = [];
  const bytes = externalBytes(message.content);
  if (bytes) {
    ref = content.put(bytes);
    stored = { ...message, content: null } as unknown as Message;
  }
  if (message.role === 'assistant' && message.toolCalls?.some((c) => externalBytes(c.arguments))) {
    const toolCalls = message.toolCalls.map((c): StoredCall => {
      const args = externalBytes(c.arguments);
      if (!args) return c;
      const argsRef = content.put(args);
      argumentRefs.push({ call: c, ref: argsRef });
      return { ...c, arguments: null, [ARGUMENTS_REF_KEY]: argsRef };
    });
    stored = { ...stored, toolCalls } as unknown as Message;
  }
  return { stored, ref, argumentRefs };
}

/**
 * Gives up `call`'s argument string when it is large (RELEASED_ARGUMENT_BYTES): from now on
 * `call.arguments` reads it from its content file (`read`). The property keeps its place and
 * stays enumerable (JSON, spreads and key order are as before); assigning it a string again
 * makes it a plain value.
 */
export function releaseArguments(call: { arguments: string | null }, ref: ContentRef, read: ContentReader): boolean {
  if (ref.bytes < RELEASED_ARGUMENT_BYTES) return false;
  Object.defineProperty(call, 'arguments', {
    get: () => read(ref),
    set(value: string) {
      Object.defineProperty(this, 'arguments', { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: true,
    configurable: true,
  });
  return true;
}

/**
 * Puts externalised tool-call arguments back into a parsed row (in place): large ones whose file
 * is there (`readable`) as a reference read when used (releaseArguments), the rest as strings.
 */
export function restoreArguments(message: { role?: string; toolCalls?: StoredCall[] }, readContent: ContentReader, readable?: (ref: ContentRef) => boolean): void {
  if (message.role !== 'assistant' || !Array.isArray(message.toolCalls)) return;
  for (const c of message.toolCalls) {
    const ref = c[ARGUMENTS_REF_KEY];
    if (!ref) continue;
    delete c[ARGUMENTS_REF_KEY];
    if (!(readable?.(ref) && releaseArguments(c, ref, readContent))) c.arguments = readContent(ref);
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
