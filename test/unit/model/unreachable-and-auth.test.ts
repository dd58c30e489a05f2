import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIConnectionError, AuthenticationError } from 'openai';
import { classifyFailure, isLoopbackUrl, unreachableReason, type AttemptState, type ErrorContext } from '../../../extension/core/model/errors';
import { createOpenAIClient } from '../../../extension/core/model/openai-client';
import { ModelError, type ModelRequest } from '../../../extension/core/model/types';

const fresh = (): AttemptState => ({ cancelled: false, timedOut: false, started: false, emitted: false });
const ctx = (endpoint: string, apiKey = 'sk-real-key-1234567890'): ErrorContext => ({ endpoint, model: 'gpt-4o', apiKey, timeoutS: 60 });
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });
/** What the SDK throws for a failed fetch: an APIConnectionError around undici's "fetch failed" TypeError. */
const connectionError = (cause: unknown) => new APIConnectionError({ cause: Object.assign(new TypeError('fetch failed'), { cause }) as Error });
const req: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

async function closedPort(): Promise<number> {
  const spare = http.createServer();
  await new Promise<void>((r) => spare.listen(0, '127.0.0.1', () => r()));
  const port = (spare.address() as AddressInfo).port;
  await new Promise<void>((r) => spare.close(() => r()));
  return port;
}

describe('issue 18: connection failures no retry can fix, and a 401 without a key, are said plainly', () => {
  it('issue 18 (loopback): localhost, 127.0.0.0/8, ::1 and 0.0.0.0 are this machine; other hosts are not', () => {
    for (const u of ['http://127.0.0.1:8080/v1', 'http://127.3.4.5/v1', 'http://localhost:11434/v1', 'http://LOCALHOST/v1', 'http://api.localhost/v1', 'http://[::1]:1234/v1', 'http://0.0.0.0:8000/v1', 'http://[::ffff:127.0.0.1]:80/v1']) {
      assert.ok(isLoopbackUrl(u), u);
    }
    for (const u of ['https://api.openai.com/v1', 'http://10.0.0.5:8000/v1', 'http://128.0.0.1/v1', 'http://localhost.example.com/v1', 'not a url']) {
      assert.ok(!isLoopbackUrl(u), u);
    }
  });

  it('issue 18 (refused): ECONNREFUSED on a loopback endpoint is not retryable and says nothing is listening there', () => {
    const f = classifyFailure(connectionError(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:45999')), fresh(), ctx('http://127.0.0.1:45999/v1'));
    assert.equal(f.retryable, false);
    assert.equal(f.error.kind, 'network');
    assert.equal(f.error.message, 'Nothing is listening at http://127.0.0.1:45999/v1 — is the server running? (connection refused; model "gpt-4o")');
  });

  it('issue 18 (refused): localhost refused on both ::1 and 127.0.0.1 (an AggregateError) is said the same way', () => {
    const both = Object.assign(new AggregateError([coded('ECONNREFUSED', 'connect ECONNREFUSED ::1:11434'), coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:11434')], ''), { code: 'ECONNREFUSED' });
    const f = classifyFailure(connectionError(both), fresh(), ctx('http://localhost:11434/v1'));
    assert.equal(f.retryable, false);
    assert.match(f.error.message, /^Nothing is listening at http:\/\/localhost:11434\/v1 — is the server running\?/);
  });

  it('issue 18 (refused): a refused remote endpoint (it may be restarting) is still retried, with the cause named', () => {
    const f = classifyFailure(connectionError(coded('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:8000')), fresh(), ctx('http://10.0.0.5:8000/v1'));
    assert.equal(f.retryable, true);
    assert.match(f.error.message, /^Could not reach the model endpoint http:\/\/10\.0\.0\.5:8000\/v1 .*ECONNREFUSED/);
  });

  it('issue 18 (bad port): a port fetch never connects to is not retryable and named plainly, on any host', () => {
    for (const endpoint of ['http://127.0.0.1:6000/v1', 'http://models.example.com:10080/v1']) {
      const f = classifyFailure(connectionError(new Error('bad port')), fresh(), ctx(endpoint));
      assert.equal(f.retryable, false, endpoint);
      const port = new URL(endpoint).port;
      assert.equal(f.error.message, `Cannot connect to ${endpoint}: port ${port} is one Node's fetch never connects to (a "bad port") — run the server on another port (model "gpt-4o"; nothing was sent).`);
      assert.ok(!/fetch failed/.test(f.error.message));
    }
  });

  it('issue 18 (other network errors): DNS failures and resets stay retryable, as before', () => {
    assert.equal(unreachableReason(connectionError(coded('ENOTFOUND', 'getaddrinfo ENOTFOUND api.openai.com')), ctx('https://api.openai.com/v1')), null);
    assert.equal(classifyFailure(connectionError(coded('ECONNRESET', 'socket hang up')), fresh(), ctx('http://127.0.0.1:1234/v1')).retryable, true);
  });

  it('issue 18 (401): with no key sent the message says so; with a key it says to check it; never retried', () => {
    const e = () => new AuthenticationError(401, { message: 'Missing credentials' }, undefined, new Headers());
    const none = classifyFailure(e(), fresh(), ctx('http://127.0.0.1:8000/v1', 'none'));
    assert.equal(none.retryable, false);
    assert.equal(none.error.kind, 'auth');
    assert.match(none.error.message, /^Authentication failed \(HTTP 401\) at the model endpoint http:\/\/127\.0\.0\.1:8000\/v1 \(model "gpt-4o"\): no API key was sent, and this endpoint needs one; the server said: Missing credentials$/);
    const keyed = classifyFailure(e(), fresh(), ctx('http://127.0.0.1:8000/v1'));
    assert.match(keyed.error.message, /: check the API key for this endpoint; the server said: Missing credentials$/);
  });

  it('issue 18 (refused, real client): a closed loopback port fails on the first attempt, with no retry', async () => {
    const port = await closedPort();
    const retries: unknown[] = [];
    const client = createOpenAIClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k', model: 'm', requestTimeoutS: 5, maxRetries: 3, retryBaseDelayMs: 1 });
    const err = await client.complete(req, { onRetry: (r) => retries.push(r) }, new AbortController().signal).then(
      () => assert.fail('expected a ModelError'),
      (e: unknown) => e as ModelError,
    );
    assert.ok(err instanceof ModelError);
    assert.equal(err.kind, 'network');
    assert.equal(err.message, `Nothing is listening at http://127.0.0.1:${port}/v1 — is the server running? (connection refused; model "m")`);
    assert.deepEqual(retries, []);
  });

  it('issue 18 (bad port, real client): fetch refuses port 6000 at once, with no retry', async () => {
    const retries: unknown[] = [];
    const client = createOpenAIClient({ baseUrl: 'http://127.0.0.1:6000/v1', apiKey: 'k', model: 'm', requestTimeoutS: 5, maxRetries: 3, retryBaseDelayMs: 1 });
    const err = (await client.complete(req, { onRetry: (r) => retries.push(r) }, new AbortController().signal).catch((e: unknown) => e)) as ModelError;
    assert.ok(err instanceof ModelError);
    assert.match(err.message, /^Cannot connect to http:\/\/127\.0\.0\.1:6000\/v1: port 6000 is one Node's fetch never connects to \(a "bad port"\)/);
    assert.deepEqual(retries, []);
  });
});
