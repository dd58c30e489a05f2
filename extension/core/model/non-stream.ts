/**
 * What to do when an endpoint answers 200 but not with an event stream: an HTML page (a wrong
 * base URL, a login or proxy page) is reported as such and not retried; a JSON chat completion
 * (a server that ignores `stream: true`) is used as the answer.
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { plainServerText } from './errors-text';
import { readErrorBody } from './error-body';
import { StreamAssembler } from './stream-assembler';
import { ModelError, type ModelResponse } from './types';

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
    const said = plainServerText(readErrorBody(text).message || JSON.stringify(body.error));
    throw new ModelError('server', `${at} reported an error; the server said: ${said}`);
  }
  const choice = body?.choices?.[0];
  if (!choice?.message) throw new ModelError('server', `${at} returned JSON that is neither an event stream nor a chat completion: check model.baseUrl (it usually ends in /v1).`);
  // The message read as one delta: text, reasoning in any shape, tool calls with their provider fields.
  const asm = new StreamAssembler();
  const calls = (choice.message.tool_calls ?? []).filter((c) => c.type === 'function').map((c, index) => ({ ...c, index, id: c.id || `call_json_${index}` }));
  const delta = { ...choice.message, tool_calls: calls } as unknown as ChatCompletionChunk.Choice.Delta;
  asm.add({ id: 'json', object: 'chat.completion.chunk', created: 0, model: '', choices: [{ index: 0, delta, finish_reason: choice.finish_reason ?? 'stop', logprobs: null }], ...(body.usage ? { usage: body.usage } : {}) });
  asm.finish();
  return asm.result();
}
