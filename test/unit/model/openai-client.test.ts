import assert from 'node:assert/strict';
import { createOpenAIClient, outputLimitParam, type OpenAIClientOptions } from '../../../extension/core/model/openai-client';
import type { ModelClient, ModelRequest, WireTool } from '../../../extension/core/model/types';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';

const tools: WireTool[] = [
  { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
  { type: 'function', function: { name: 'grep', description: 'Search', parameters: { type: 'object', properties: { pattern: { type: 'string' } } } } },
];

describe('OpenAI-compatible model client: streaming', () => {
  let srv: ScriptedServer;
  let client: ModelClient;
  const signal = () => new AbortController().signal;
  const make = (o: Partial<OpenAIClientOptions> = {}) =>
    createOpenAIClient({ baseUrl: srv.baseUrl, apiKey: 'sk-test-key', model: 'gpt-4.1-mini', requestTimeoutS: 5, maxRetries: 0, ...o });
  const ask = (text: string, t: WireTool[] = []): ModelRequest => ({ messages: [{ role: 'user', content: text }], tools: t });

  beforeEach(async () => {
    srv = await startScriptedServer();
    client = make();
  });
  afterEach(() => srv.close());

  it('streams a plain answer to onText and returns it whole', async () => {
    srv.enqueue({ text: 'The answer is forty-two, of course.' });
    const deltas: string[] = [];
    const res = await client.complete(ask('question'), { onText: (d) => deltas.push(d) }, signal());
    assert.ok(deltas.length > 2, 'text arrives in several deltas');
    assert.equal(deltas.join(''), 'The answer is forty-two, of course.');
    assert.equal(res.text, 'The answer is forty-two, of course.');
    assert.deepEqual(res.toolCalls, []);
    assert.equal(res.finishReason, 'stop');
  });

  it('sends model, messages, stream options and no tools key when there are no tools', async () => {
    srv.enqueue({ text: 'ok' });
    await client.complete(ask('hello'), {}, signal());
    const body = srv.chatRequests()[0]!.body;
    assert.equal(body.model, 'gpt-4.1-mini');
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.deepEqual(body.messages, [{ role: 'user', content: 'hello' }]);
    assert.ok(!('tools' in body));
    assert.ok(!('max_tokens' in body) && !('max_completion_tokens' in body));
    assert.equal(srv.chatRequests()[0]!.headers.authorization, 'Bearer sk-test-key');
  });

  it('assembles parallel tool calls by index, with text before them', async () => {
    srv.enqueue({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_1', name: 'read_file', arguments: '{"path":"src/main.ts"}' },
        { id: 'call_2', name: 'grep', arguments: '{"pattern":"TODO","glob":"**/*.ts"}' },
        { name: 'read_file', arguments: '{"path":"README.md"}' },
      ],
    });
    const res = await client.complete(ask('look', tools), {}, signal());
    assert.equal(res.text, 'Let me look.');
    assert.equal(res.finishReason, 'tool_calls');
    assert.deepEqual(res.toolCalls, [
      { id: 'call_1', name: 'read_file', arguments: '{"path":"src/main.ts"}' },
      { id: 'call_2', name: 'grep', arguments: '{"pattern":"TODO","glob":"**/*.ts"}' },
      { id: 'call_0_2', name: 'read_file', arguments: '{"path":"README.md"}' },
    ]);
  });

  it('returns malformed tool arguments verbatim for the loop to judge', async () => {
    srv.enqueue({ toolCalls: [{ id: 'c', name: 'read_file', arguments: '{"path": "a.ts"' }] });
    const res = await client.complete(ask('x', tools), {}, signal());
    assert.equal(res.toolCalls[0]!.arguments, '{"path": "a.ts"');
  });

  it('captures usage including cached tokens', async () => {
    srv.enqueue({ text: 'hi', usage: { prompt_tokens: 1234, completion_tokens: 56, cached_tokens: 1024 } });
    const res = await client.complete(ask('x'), {}, signal());
    assert.deepEqual(res.usage, { promptTokens: 1234, completionTokens: 56, cachedTokens: 1024 });
  });

  it('passes the tools array through so two rounds send byte-identical tools JSON', async () => {
    srv.enqueue({ text: 'one' }, { text: 'two' });
    const req1: ModelRequest = { messages: [{ role: 'user', content: 'first' }], tools };
    const req2: ModelRequest = { messages: [...req1.messages, { role: 'assistant', content: 'one' }, { role: 'user', content: 'second' }], tools };
    await client.complete(req1, {}, signal());
    await client.complete(req2, {}, signal());
    const expected = `"tools":${JSON.stringify(tools)}`;
    const toolsJson = (raw: string) => {
      const start = raw.indexOf('"tools":');
      assert.ok(start >= 0, 'tools key present');
      return raw.slice(start, start + expected.length);
    };
    const [a, b] = srv.chatRequests().map((r) => r.raw);
    assert.notEqual(a, b);
    assert.equal(toolsJson(a!), toolsJson(b!));
    assert.equal(toolsJson(a!), expected);
    assert.deepEqual(srv.chatRequests()[1]!.body.tools, tools);
  });

  it('sends the output limit under the name the model family expects', async () => {
    srv.enqueue({ text: 'a' });
    await make({ maxOutputTokens: 321 }).complete(ask('x'), {}, signal());
    assert.equal(srv.chatRequests()[0]!.body.max_tokens, 321);
    assert.deepEqual(outputLimitParam('o4-mini', 5), { max_completion_tokens: 5 });
    assert.deepEqual(outputLimitParam('openai/gpt-5-mini', 5), { max_completion_tokens: 5 });
    assert.deepEqual(outputLimitParam('qwen2.5-coder:7b', 5), { max_tokens: 5 });
  });

  it('exposes endpoint and model, with credentials stripped from the endpoint', async () => {
    const c = createOpenAIClient({ baseUrl: 'https://user:secret@example.test/v1/?key=abc', apiKey: 'k', model: 'm', requestTimeoutS: 1, maxRetries: 0 });
    assert.equal(c.endpoint, 'https://example.test/v1');
    assert.equal(c.model, 'm');
  });

  it('rethrows an error thrown by onText unchanged and does not retry', async () => {
    srv.enqueue({ text: 'boom boom boom' });
    const mine = new Error('handler exploded');
    const err = await make({ maxRetries: 3 })
      .complete(ask('x'), { onText: () => { throw mine; } }, signal())
      .catch((e) => e);
    assert.equal(err, mine);
    assert.equal(srv.chatRequests().length, 1);
  });
});
