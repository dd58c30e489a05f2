/**
 * The Chat Completions wire request (what every round builds) in the shape of the editor's
 * language-model API: messages of text, tool-call, tool-result and image parts, and tools.
 */
import type { WireContentPart, WireMessage, WireTool } from '../../core/model/types';
import type { LmApi, LmChatTool, LmMessage } from './lm-api';

/** Text that stands in for a picture when the editor cannot carry one. */
export const LM_IMAGE_UNSUPPORTED = '[image not sent: this editor\'s language-model API cannot carry images]';

/** Arguments the model wrote are JSON text; the API wants an object (unparseable text is kept under `arguments`). */
function argumentsObject(text: string): object {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : { arguments: v };
  } catch {
    return { arguments: text };
  }
}

function imagePart(url: string, api: LmApi): unknown {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!m || !api.LanguageModelDataPart) return new api.LanguageModelTextPart(LM_IMAGE_UNSUPPORTED);
  return api.LanguageModelDataPart.image(Buffer.from(m[2], 'base64'), m[1]);
}

function userParts(content: string | WireContentPart[], api: LmApi): unknown[] {
  if (typeof content === 'string') return [new api.LanguageModelTextPart(content)];
  return content.map((p) => (p.type === 'text' ? new api.LanguageModelTextPart(p.text) : imagePart(p.image_url.url, api)));
}

/**
 * The stable API has user and assistant roles only: the system prompt becomes the first user
 * message (as the editor's own chat participants send theirs). Consecutive tool results
 * join one user message, one result part per call, as tool-calling providers expect.
 */
export function toLmMessages(messages: readonly WireMessage[], api: LmApi): LmMessage[] {
  const out: LmMessage[] = [];
  let results: unknown[] | null = null;
  const flush = () => {
    if (results) out.push(api.LanguageModelChatMessage.User(results));
    results = null;
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      (results ??= []).push(new api.LanguageModelToolResultPart(m.tool_call_id, [new api.LanguageModelTextPart(m.content)]));
      continue;
    }
    flush();
    if (m.role === 'system') out.push(api.LanguageModelChatMessage.User([new api.LanguageModelTextPart(m.content)]));
    else if (m.role === 'user') out.push(api.LanguageModelChatMessage.User(userParts(m.content, api)));
    else {
      const parts: unknown[] = m.content ? [new api.LanguageModelTextPart(m.content)] : [];
      for (const c of m.tool_calls ?? []) parts.push(new api.LanguageModelToolCallPart(c.id, c.function.name, argumentsObject(c.function.arguments)));
      out.push(api.LanguageModelChatMessage.Assistant(parts.length ? parts : ''));
    }
  }
  flush();
  return out;
}

export function toLmTools(tools: readonly WireTool[]): LmChatTool[] {
  return tools.map((t) => ({ name: t.function.name, description: t.function.description, inputSchema: t.function.parameters }));
}
