/**
 * A loopback HTTP server that answers Messages API requests with recorded real responses
 * (test/fixtures/providers/anthropic/<case>.json, and its .sse body) byte for byte, and records
 * every request it got (method, path, headers, the raw body).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

export const FIXTURES = path.resolve(__dirname, '../../../fixtures/providers/anthropic');

export interface Recording {
  what: string;
  status: number;
  headers: Record<string, string>;
  /** The response body, byte for byte. */
  body: Buffer;
  recordedRequest?: { messages: Array<{ role: string; content: unknown }> } & Record<string, unknown>;
}

export function recording(name: string): Recording {
  const meta = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Omit<Recording, 'body'> & { body?: string; bodyFile?: string };
  const body = meta.bodyFile ? fs.readFileSync(path.join(FIXTURES, meta.bodyFile)) : Buffer.from(meta.body ?? '', 'utf8');
  return { what: meta.what, status: meta.status, headers: meta.headers, body, recordedRequest: meta.recordedRequest };
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown> & { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
}

/** What the server does with the next request: replay a recording, or hold the response open (headers only, or nothing). */
export type Reply = { recording: string } | { hold: 'before-headers' | 'after-headers' };

export interface ReplayServer {
  /** Base URL to give the client (no /v1: the SDK adds it). */
  baseUrl: string;
  requests: ReceivedRequest[];
  enqueue(...replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startReplayServer(): Promise<ReplayServer> {
  const queue: Reply[] = [];
  const requests: ReceivedRequest[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, body: raw ? JSON.parse(raw) : {} });
      const reply = queue.shift();
      if (!reply) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('replay server: nothing queued');
        return;
      }
      if ('hold' in reply) {
        open.add(res);
        if (reply.hold === 'after-headers') res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' }).flushHeaders();
        return;
      }
      const r = recording(reply.recording);
      res.writeHead(r.status, { ...r.headers, 'content-length': String(r.body.length) });
      // In a few pieces, cut at arbitrary bytes, as a network delivers it.
      for (let i = 0; i < r.body.length; i += 700) res.write(r.body.subarray(i, i + 700));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
