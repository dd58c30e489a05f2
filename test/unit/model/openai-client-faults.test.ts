import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAIClient, type OpenAIClientOptions } from '../../../extension/core/model/openai-client';
import { ModelError, type ModelRequest, type StreamHandlers } from '../../../extension/core/model/types';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';
import { eventually } from '../../fixtures/eventually';

const KEY = 'sk-proj-SuperSecretKey1234567890';
const req: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

describe('OpenAI-compatible model client: faults, retries, errors', () => {
  let srv: ScriptedServer;
  const make = (o: Partial<OpenAIClientOptions> = {}) =>
    createOpenAIClient({ baseUrl: srv.baseUrl, apiKey: KEY, model: 'gpt-4o', requestTimeoutS: 5, maxRetries: 3, retryBaseDelayMs: 1, ...o });
  const retries: Array<{ attempt: number; delayMs: number; reason: string }> = [];
  const handlers = (extra: StreamHandlers = {}): StreamHandlers => ({ onRetry: (r) => retries.push(r), ...extra });
  const fail = (p: Promise<unknown>) =>
    p.then(
      () => assert.fail('expected a ModelError'),
      (e: unknown) => {
        assert.ok(e instanceof ModelError, `expected ModelError, got ${String(e)}`);
        return e;
      },
    );

  beforeEach(async () => {
    srv = await startScriptedServer();
    retries.length = 0;
  });
  afterEach(() => srv.close());

  it('429 with Retry-After: waits as told, reports the retry, then succeeds', async () => {
    srv.enqueue({ fault: { status: 429, retryAfterS: 0.05 } }, { text: 'after the wait' });
    const res = await make().complete(req, handlers(), new AbortController().signal);
    assert.equal(res.text, 'after the wait');
    assert.equal(srv.chatRequests().length, 2);
    assert.equal(retries.length, 1);
    assert.equal(retries[0]!.attempt, 1);
    assert.equal(retries[0]!.delayMs, 50);
    assert.match(retries[0]!.reason, /429/);
  });

  it('bounds a long Retry-After by the maximum delay', async () => {
    srv.enqueue({ fault: { status: 429, retryAfterS: 3600 } }, { text: 'ok' });
    await make({ retryMaxDelayMs: 20 }).complete(req, handlers(), new AbortController().signal);
    assert.equal(retries[0]!.delayMs, 20);
  });

  it('500 then success', async () => {
    srv.enqueue({ fault: { status: 500 } }, { fault: { status: 503 } }, { text: 'fine now' });
    const res = await make().complete(req, handlers(), new AbortController().signal);
    assert.equal(res.text, 'fine now');
    assert.equal(srv.chatRequests().length, 3);
    assert.deepEqual(retries.map((r) => r.attempt), [1, 2]);
  });

  it('500 beyond the retries: a clear server error after maxRetries + 1 requests', async () => {
    srv.enqueue(...Array.from({ length: 5 }, () => ({ fault: { status: 500, message: 'upstream exploded' } as const })));
    const err = await fail(make({ maxRetries: 2 }).complete(req, handlers(), new AbortController().signal));
    assert.equal(err.kind, 'server');
    assert.equal(err.status, 500);
    assert.equal(srv.chatRequests().length, 3);
    assert.equal(retries.length, 2);
    assert.match(err.message, /HTTP 500/);
    assert.match(err.message, /upstream exploded/);
    assert.match(err.message, /gave up after 2 retries/);
    assert.ok(err.message.includes(srv.baseUrl) && err.message.includes('gpt-4o'));
  });

  it('a stream cut after text has streamed: stream_cut, not retried', async () => {
    srv.enqueue({ text: 'a long answer that gets cut in the middle', fault: { cutAfterChunks: 3 } }, { text: 'never requested' });
    const seen: string[] = [];
    const err = await fail(make().complete(req, handlers({ onText: (d) => seen.push(d) }), new AbortController().signal));
    assert.equal(err.kind, 'stream_cut');
    assert.match(err.message, /cut after part of the answer had streamed/);
    assert.equal(seen.join(''), 'a long answer th');
    assert.equal(srv.chatRequests().length, 1);
    assert.equal(retries.length, 0);
  });

  it('a stream cut before any text: retried transparently', async () => {
    srv.enqueue({ text: 'lost', fault: { cutAfterChunks: 1 } }, { text: 'second try' });
    const seen: string[] = [];
    const res = await make().complete(req, handlers({ onText: (d) => seen.push(d) }), new AbortController().signal);
    assert.equal(res.text, 'second try');
    assert.equal(seen.join(''), 'second try');
    assert.equal(retries.length, 1);
    assert.match(retries[0]!.reason, /before any text/);
  });

  it('a slow first byte beyond requestTimeoutS: timeout', async () => {
    srv.enqueue({ text: 'too late', fault: { firstByteDelayMs: 1500 } });
    const err = await fail(make({ requestTimeoutS: 0.1, maxRetries: 0 }).complete(req, handlers(), new AbortController().signal));
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /No response from .* within 0.1s/);
  });

  it('a slow first byte is retried like a network failure, and the retry can succeed', async () => {
    srv.enqueue({ text: 'too late', fault: { firstByteDelayMs: 1500 } }, { text: 'prompt' });
    const res = await make({ requestTimeoutS: 0.1, maxRetries: 1 }).complete(req, handlers(), new AbortController().signal);
    assert.equal(res.text, 'prompt');
    assert.equal(retries.length, 1);
  });

  it('an idle gap mid-stream longer than the timeout: timeout naming the silence', async () => {
    srv.enqueue({ text: 'starts then stalls forever', fault: { stallAfterChunks: 2, stallMs: 1500 } });
    const seen: string[] = [];
    const err = await fail(make({ requestTimeoutS: 0.1 }).complete(req, handlers({ onText: (d) => seen.push(d) }), new AbortController().signal));
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /went silent for more than 0.1s/);
    assert.equal(seen.join(''), 'starts t');
    assert.equal(retries.length, 0, 'not retried once text has streamed');
  });

  it('abort mid-stream: cancelled, no retry', async () => {
    srv.enqueue({ text: 'one two three four five six seven eight nine ten' }, { text: 'never' });
    const ac = new AbortController();
    const seen: string[] = [];
    const err = await fail(make().complete(req, handlers({ onText: (d) => (seen.push(d), seen.length === 2 && ac.abort()) }), ac.signal));
    assert.equal(err.kind, 'cancelled');
    assert.equal(seen.length, 2);
    assert.equal(srv.chatRequests().length, 1);
  });

  it('abort while waiting for the first byte reaches the HTTP request', async () => {
    let closed = false;
    srv.route('POST /v1/chat/completions', ({ req: r }) => void r.socket.once('close', () => (closed = true)));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const err = await fail(make().complete(req, handlers(), ac.signal));
    assert.equal(err.kind, 'cancelled');
    assert.ok(await eventually(() => closed), 'the server saw the connection close');
  });

  it('abort during a retry wait: cancelled without another request', async () => {
    srv.enqueue({ fault: { status: 429, retryAfterS: 10 } }, { text: 'never' });
    const ac = new AbortController();
    const err = await fail(make({ retryMaxDelayMs: 60_000 }).complete(req, handlers({ onRetry: () => ac.abort() }), ac.signal));
    assert.equal(err.kind, 'cancelled');
    assert.equal(srv.chatRequests().length, 1);
  });

  it('401: auth error naming endpoint and model, never the key (even when the server echoes it)', async () => {
    srv.enqueue({ fault: { status: 401, message: `Incorrect API key provided: ${KEY}. You can find your key at ...` } });
    const err = await fail(make().complete(req, handlers(), new AbortController().signal));
    assert.equal(err.kind, 'auth');
    assert.equal(err.status, 401);
    assert.ok(err.message.includes(srv.baseUrl), err.message);
    assert.ok(err.message.includes('gpt-4o'), err.message);
    assert.ok(!err.message.includes(KEY), err.message);
    assert.ok(!err.message.includes('SuperSecret'), err.message);
    assert.equal(srv.chatRequests().length, 1, '401 is not retried');
  });

  it('404: not_found naming model and endpoint', async () => {
    srv.enqueue({ fault: { status: 404 } });
    const err = await fail(make({ model: 'no-such-model' }).complete(req, handlers(), new AbortController().signal));
    assert.equal(err.kind, 'not_found');
    assert.match(err.message, /no-such-model/);
    assert.ok(err.message.includes(srv.baseUrl));
    assert.match(err.message, /base URL/);
  });

  it('context-length errors are classified, by code or by message', async () => {
    srv.enqueue(
      { fault: { status: 400, code: 'context_length_exceeded', message: 'Input too big.' } },
      { fault: { status: 400, message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens." } },
      { fault: { status: 400, message: 'Unknown parameter: foo' } },
    );
    const client = make();
    const a = await fail(client.complete(req, handlers(), new AbortController().signal));
    const b = await fail(client.complete(req, handlers(), new AbortController().signal));
    const c = await fail(client.complete(req, handlers(), new AbortController().signal));
    assert.equal(a.kind, 'context_length');
    assert.equal(b.kind, 'context_length');
    assert.match(b.message, /context window of model "gpt-4o"/);
    assert.equal(c.kind, 'bad_request');
    assert.equal(srv.chatRequests().length, 3, 'none retried');
  });

  it('a refused connection on loopback: a network error at once, no retries (issue 18: nothing is listening there)', async () => {
    const spare = http.createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', () => r()));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((r) => spare.close(() => r()));
    const client = createOpenAIClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY, model: 'm', requestTimeoutS: 5, maxRetries: 1, retryBaseDelayMs: 1 });
    const err = await fail(client.complete(req, handlers(), new AbortController().signal));
    assert.equal(err.kind, 'network');
    assert.match(err.message, /connection refused/);
    assert.ok(err.message.includes(`Nothing is listening at http://127.0.0.1:${port}/v1 — is the server running?`));
    assert.equal(retries.length, 0);
  });

  it('a stream that ends cleanly without finishing is reported as cut', async () => {
    srv.route('POST /v1/chat/completions', ({ res }) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'half' }, finish_reason: null }] };
      res.end(`data: ${JSON.stringify(chunk)}\n\n`);
    });
    const err = await fail(make().complete(req, handlers(), new AbortController().signal));
    assert.equal(err.kind, 'stream_cut');
    assert.match(err.message, /ended before the answer was complete/);
  });
});
