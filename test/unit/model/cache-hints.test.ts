import assert from 'node:assert/strict';
import { createOpenAIClient } from '../../../extension/core/model/openai-client';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';

const req = (key?: string) => ({ messages: [{ role: 'system' as const, content: 'You are Snowpea.' }, { role: 'user' as const, content: 'hi' }], tools: [], cacheKey: key });
const noop = { onText: () => {} };

describe('prompt-cache hints in the request body', () => {
  let server: ScriptedServer;
  beforeEach(async () => (server = await startScriptedServer()));
  afterEach(async () => server.close());

  const client = (model: string, cacheHints: 'auto' | 'off' = 'auto') => createOpenAIClient({ baseUrl: server.baseUrl, apiKey: 'k', model, requestTimeoutS: 5, maxRetries: 1, retryBaseDelayMs: 1, cacheHints });

  it('sends prompt_cache_key (the session id) on every request; "off" sends none', async () => {
    server.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const c = client('gpt-4.1-mini');
    await c.complete(req('session-1'), noop, new AbortController().signal);
    await c.complete(req('session-1'), noop, new AbortController().signal);
    await client('gpt-4.1-mini', 'off').complete(req('session-1'), noop, new AbortController().signal);
    const bodies = server.chatRequests().map((r) => r.body as any);
    assert.deepEqual(bodies.map((b) => b.prompt_cache_key), ['session-1', 'session-1', undefined]);
    assert.equal(typeof bodies[0].messages[0].content, 'string', 'no cache_control for a non-Claude model');
  });

  it('an endpoint that rejects prompt_cache_key gets the request again without it, and never gets it again', async () => {
    server.enqueue({ fault: { status: 400, message: 'Unrecognized request argument supplied: prompt_cache_key' } }, { text: 'ok' }, { text: 'again' });
    const c = client('gpt-4o');
    const r = await c.complete(req('s'), noop, new AbortController().signal);
    assert.equal(r.text, 'ok');
    await c.complete(req('s'), noop, new AbortController().signal);
    const bodies = server.chatRequests().map((x) => x.body as any);
    assert.deepEqual(bodies.map((b) => b.prompt_cache_key), ['s', undefined, undefined]);
  });

  it('Claude models behind a gateway get cache_control breakpoints on the system prompt and the last message', async () => {
    server.enqueue({ text: 'ok' });
    await client('anthropic/claude-sonnet-4.5').complete(req('s'), noop, new AbortController().signal);
    const b = server.chatRequests()[0].body as any;
    assert.deepEqual(b.messages[0].content, [{ type: 'text', text: 'You are Snowpea.', cache_control: { type: 'ephemeral' } }]);
    assert.deepEqual(b.messages[1].content, [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }]);
  });

  it('a gateway that refuses cache_control gets plain messages from then on; an unrelated 400 is not retried', async () => {
    server.enqueue({ fault: { status: 400, message: 'messages.0.content.0.cache_control: Extra inputs are not permitted' } }, { text: 'ok' }, { fault: { status: 400, message: 'max_tokens is too large' } });
    const c = client('claude-sonnet-4.5');
    assert.equal((await c.complete(req(), noop, new AbortController().signal)).text, 'ok');
    await assert.rejects(c.complete(req(), noop, new AbortController().signal), /max_tokens is too large/);
    const bodies = server.chatRequests().map((x) => x.body as any);
    assert.equal(bodies.length, 3);
    assert.equal(typeof bodies[1].messages[0].content, 'string');
    assert.equal(typeof bodies[2].messages[0].content, 'string');
  });
});
