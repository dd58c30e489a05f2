import type { z } from 'zod';
import { hostMessageSchema, type HostMessage } from './host-messages';
import { webviewMessageSchema, type WebviewMessage } from './webview-messages';

export type ParseResult<T> = { ok: true; msg: T } | { ok: false; error: string };

/** Names what is wrong in one line per issue, e.g. `event.event.text: expected string`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.map(String).join('.');
      return where ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function typeOf(x: unknown): string {
  if (x && typeof x === 'object' && typeof (x as { type?: unknown }).type === 'string') return (x as { type: string }).type;
  return typeof x;
}

function parseWith<T>(schema: z.ZodType<T>, x: unknown, direction: string): ParseResult<T> {
  const r = schema.safeParse(x);
  if (r.success) return { ok: true, msg: r.data };
  return { ok: false, error: `invalid ${direction} message (${typeOf(x)}): ${describeIssues(r.error)}` };
}

/** Validates a message from the host; the webview calls this on every `message` event. */
export function parseHostMessage(x: unknown): ParseResult<HostMessage> {
  return parseWith(hostMessageSchema, x, 'host');
}

/** Validates a message from the webview; the host calls this in `onDidReceiveMessage`. */
export function parseWebviewMessage(x: unknown): ParseResult<WebviewMessage> {
  return parseWith(webviewMessageSchema, x, 'webview');
}
