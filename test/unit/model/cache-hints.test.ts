import assert from 'node:assert/strict';
import { createOpenAIClient } from '../../../extension/core/model/openai-client';
import { acceptsCacheKey, hintsFor, refusedParams } from '../../../extension/core/model/cache-hints';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';

const req = (key?: string) => ({ messages: [{ role: 'system' as const, content: 'You are Snowpea.' }, { role: 'user' as const, content: 'hi' }], tools: [], cacheKey: key });
const noop = { onText: () => {} };

describe('prompt-cache hints in the request body', () => {
  let server: ScriptedServer;
  beforeEach(async () => (server = await startScriptedServer()));
  afterEach(async () => server.close());

  const client = (model: string, cacheHints: 'auto' | 'on' | 'off' = 'on') => createOpenAIClient({ baseUrl: server.baseUrl, apiKey: 'k', model, requestTimeoutS: 5, maxRetries: 1, retryBaseDelayMs: 1, cacheHints });

  it('"on" sends prompt_cache_key (the session id) on every request; "off" sends none', async () => {
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

  it('"auto" sends prompt_cache_key only where it is known to be taken: not to a local or unknown server', async () => {
    server.enqueue({ text: 'a' });
    await client('gpt-4.1-mini', 'auto').complete(req('session-1'), noop, new AbortController().signal);
    assert.equal((server.chatRequests()[0].body as any).prompt_cache_key, undefined);
    for (const url of ['https://api.openai.com/v1', 'https://my-res.openai.azure.com/openai/v1', 'https://openrouter.ai/api/v1', 'https://api.deepseek.com']) assert.ok(acceptsCacheKey(url), url);
    for (const url of ['https://generativelanguage.googleapis.com/v1beta/openai', 'https://api.cerebras.ai/v1', 'http://localhost:11434/v1', 'https://api.openai.com.evil.example/v1', 'not a url']) assert.ok(!acceptsCacheKey(url), url);
    assert.deepEqual(hintsFor('gpt-4o', 'auto', 'k', new Set(), 'https://api.openai.com/v1'), ['prompt_cache_key']);
    assert.deepEqual(hintsFor('gpt-4o', 'auto', 'k', new Set(), 'https://api.cerebras.ai/v1'), []);
  });

  it('a refusal is remembered per endpoint: a second client (another session) for it never sends the refused hint', async () => {
    server.enqueue({ fault: { status: 400, message: 'Unrecognized request argument supplied: prompt_cache_key' } }, { text: 'ok' }, { text: 'again' });
    await client('gpt-4o').complete(req('s1'), noop, new AbortController().signal);
    await client('gpt-4o').complete(req('s2'), noop, new AbortController().signal);
    assert.deepEqual(server.chatRequests().map((x) => (x.body as any).prompt_cache_key), ['s1', undefined, undefined]);
  });

  it('a 400 with no readable reason is tried once without every optional part; if that works they stay off, and the log says what was dropped once', async () => {
    const logs: string[] = [];
    server.route('POST /v1/chat/completions', ({ res, record }) => {
      const b = JSON.parse(record.raw);
      if (b.prompt_cache_key || b.stream_options) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"choices":[{"index":0,"delta":{"content":"bare ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
    });
    const c = createOpenAIClient({ baseUrl: server.baseUrl, apiKey: 'k', model: 'gpt-4o', requestTimeoutS: 5, maxRetries: 0, cacheHints: 'on', log: (_l, m) => logs.push(m) });
    assert.equal((await c.complete(req('s'), noop, new AbortController().signal)).text, 'bare ok');
    assert.equal((await c.complete(req('s'), noop, new AbortController().signal)).text, 'bare ok');
    const bodies = server.requests.map((x) => x.body as any);
    assert.deepEqual(bodies.map((b) => [b.prompt_cache_key, b.stream_options?.include_usage]), [['s', true], [undefined, undefined], [undefined, undefined]]);
    assert.equal(logs.filter((m) => /refused prompt_cache_key and stream_options/.test(m)).length, 1, logs.join('\n'));
    assert.deepEqual(c.dropped?.(), ['prompt_cache_key', 'stream_options']);
  });

  it('a readable 400 that does not name a hint is not retried, and says that model.cacheHints "off" would drop the hint', async () => {
    server.enqueue({ fault: { status: 400, message: 'Invalid request body' } });
    const err = await client('gpt-4o').complete(req('s'), noop, new AbortController().signal).then(() => assert.fail('expected an error'), (e: Error) => e);
    assert.match(err.message, /Invalid request body.*prompt_cache_key cache hint.*model\.cacheHints to "off"/);
    assert.equal(server.chatRequests().length, 1);
  });

  it('only refusal wording drops a part: DeepSeek asking for reasoning_content back does not', () => {
    const sent = ['prompt_cache_key', 'reasoning_content'] as const;
    assert.deepEqual(refusedParams(400, 'Invalid JSON payload received. Unknown name "prompt_cache_key": Cannot find field.', sent), ['prompt_cache_key']);
    assert.deepEqual(refusedParams(400, 'The `reasoning_content` in the thinking mode must be passed back to the API.', sent), []);
    assert.deepEqual(refusedParams(500, 'Unknown name "prompt_cache_key"', sent), []);
  });
});
