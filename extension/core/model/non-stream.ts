/**
 * What to do when an endpoint answers 200 but not with an event stream: an HTML page (a wrong
 * base URL, a login or proxy page) is reported as such and not retried; a JSON chat completion
 * (a server that ignores `stream: true`) is used as the answer.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { plainServerText } from './errors';
import { readUsage } from './stream-assembler';
import { ModelError, type ModelResponse, type ModelToolCall } from './types';

/** How a 200 response's body is to be read, from its content type. */
export function bodyShape(contentType: string): 'sse' | 'html' | 'json' | 'other' {
  const t = contentType.toLowerCase();
  if (t.includes('text/event-stream')) return 'sse';
  if (t.includes('text/html') || t.includes('application/xhtml')) return 'html';
  if (/application\/([\w.+-]*\+)?json/.test(t)) return 'json';
  return 'other';
}

/** The body as text, at most `max` bytes of it (the rest is not read). */
export async function readCapped(res: Response, max = 64 * 1024): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.byteLength;
    }
  } finally {
    if (size >= max) void reader.cancel().catch(() => {});
  }
  return Buffer.concat(parts).subarray(0, max).toString('utf8');
}

/** "the endpoint returned an HTML page (text/html), not an event stream: check model.baseUrl ...". */
export function notAStreamError(at: string, contentType: string, body: string, html: boolean): ModelError {
  const what = html ? `an HTML page (${contentType})` : `${contentType ? `a ${contentType} body` : 'a body with no content type'}`;
  const text = plainServerText(body);
  const said = text ? ` It began: "${text}"` : '';
  return new ModelError('not_found', `${at} returned ${what}, not an event stream: check model.baseUrl (it usually ends in /v1).${said}`);
}

/** A non-streamed chat completion as a ModelResponse; a ModelError when it holds an error or no answer. */
export function responseFromCompletion(at: string, text: string): ModelResponse {
  let body: Partial<ChatCompletion> & { error?: { message?: unknown } };
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new ModelError('server', `${at} returned unreadable JSON instead of an event stream (${(e as Error).message}).`);
  }
  if (body?.error) {
    const said = plainServerText(typeof body.error.message === 'string' ? body.error.message : JSON.stringify(body.error));
    throw new ModelError('server', `${at} reported an error; the server said: ${said}`);
  }
  const choice = body?.choices?.[0];
  if (!choice?.message) throw new ModelError('server', `${at} returned JSON that is neither an event stream nor a chat completion: check model.baseUrl (it usually ends in /v1).`);
  const toolCalls: ModelToolCall[] = (choice.message.tool_calls ?? []).flatMap((c, i) =>
    c.type === 'function' ? [{ id: c.id || `call_json_${i}`, name: c.function.name, arguments: c.function.arguments?.trim() ? c.function.arguments : '{}' }] : [],
  );
  return {
    text: typeof choice.message.content === 'string' ? choice.message.content : '',
    toolCalls,
    usage: body.usage ? readUsage(body.usage) : null,
    finishReason: choice.finish_reason ?? 'stop',
  };
}
