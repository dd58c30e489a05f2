import assert from 'node:assert/strict';
import { createAnthropicClient, type AnthropicClientOptions } from '../../../../extension/core/model/anthropic/client';
import { ModelError, type ModelClient, type ModelRequest, type ModelResponse, type WireMessage, type WireTool } from '../../../../extension/core/model/types';
import { recording, startReplayServer, type ReplayServer } from './replay-server';

const KEY = 'sk-ant-api03-test-key-0123456789abcdef';
const signal = () => new AbortController().signal;

const fixedVersionTool: WireTool = { type: 'function', function: { name: 'fixed_version', description: 'Return a fixed test version string', parameters: { properties: {}, type: 'object' } } };
const SYSTEM = 'You are Snowpea, a coding agent. Be brief.';

describe('anthropic provider: recorded Messages API responses replayed into the real SDK', () => {
  let server: ReplayServer;
  const lines: string[] = [];
  beforeEach(async () => {
    server = await startReplayServer();
    lines.length = 0;
  });
  afterEach(() => server.close());

  const client = (over: Partial<AnthropicClientOptions> = {}): ModelClient =>
    createAnthropicClient({ baseUrl: server.baseUrl, apiKey: KEY, model: 'claude-haiku-4-5-20251001', requestTimeoutS: 10, maxRetries: 0, retryBaseDelayMs: 1, log: (l, m) => void lines.push(`${l}: ${m}`), ...over });

  async function run(c: ModelClient, req: ModelRequest) {
    const text: string[] = [];
    const reasoning: string[] = [];
    const retries: Array<{ attempt: number; delayMs: number; reason: string }> = [];
    const res = await c.complete(req, { onText: (d) => text.push(d), onReasoning: (d) => reasoning.push(d), onRetry: (r) => retries.push(r) }, signal());
    return { res, text, reasoning, retries };
  }

  async function failure(c: ModelClient, req: ModelRequest): Promise<ModelError> {
    try {
      await c.complete(req, {}, signal());
    } catch (e) {
      assert.ok(e instanceof ModelError, String(e));
      return e;
    }
    return assert.fail('the request succeeded');
  }

  const hello: ModelRequest = { messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'Say just hello' }], tools: [] };

  it('a text answer: its text streamed and returned, end_turn as "stop", usage; the request went to /v1/messages with the key, streaming', async () => {
    server.enqueue({ recording: 'text-haiku' });
    const { res, text } = await run(client(), hello);
    assert.equal(res.text, 'Hello');
    assert.deepEqual(text, ['Hello']);
    assert.equal(res.finishReason, 'stop');
    assert.deepEqual(res.toolCalls, []);
    assert.equal(res.reasoning, undefined);
    assert.deepEqual(res.usage, { promptTokens: 10, completionTokens: 4, cachedTokens: 0, cacheWriteTokens: 0 });
    const [req] = server.requests;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/v1/messages');
    assert.ok(req.headers.authorization === `Bearer ${KEY}` || req.headers['x-api-key'] === KEY, 'the key is sent');
    assert.equal(req.body.model, 'claude-haiku-4-5-20251001');
    assert.equal(req.body.stream, true);
    assert.equal(req.body.max_tokens, 8192, 'max_tokens is required: a default when model.maxOutputTokens is null');
    assert.deepEqual(req.body.system, [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }]);
    assert.deepEqual(req.body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Say just hello', cache_control: { type: 'ephemeral' } }] }]);
    assert.equal(req.body.thinking, undefined);
  });

  it('prompt caching: cache reads and writes from message_delta\'s cumulative usage (not message_start\'s first counts)', async () => {
    server.enqueue({ recording: 'cache-write-and-read' });
    const { res } = await run(client({ model: 'claude-sonnet-5' }), hello);
    assert.equal(res.text, 'The sum of the squares of the numbers 1 through 12 is **650**.');
    assert.deepEqual(res.usage, { promptTokens: 6 + 3337 + 6289, completionTokens: 198, cachedTokens: 6289, cacheWriteTokens: 3337 });
    assert.deepEqual(res.toolCalls, [], "the server's own code-execution calls are not calls for the agent");
    assert.equal(res.finishReason, 'stop');
  });

  it('extended thinking: the reasoning streams apart from the text and comes back with its signature; the text has none of it', async () => {
    server.enqueue({ recording: 'thinking-text-sonnet4' });
    const { res, text, reasoning } = await run(client({ model: 'claude-sonnet-4-0', thinkingBudgetTokens: 1024 }), { messages: [{ role: 'user', content: 'How do I cross the street?' }], tools: [] });
    assert.ok(res.text.startsWith('Here are the basic steps for safely crossing the street:\n\n**At intersections with traffic lights:**'), res.text.slice(0, 100));
    assert.ok(res.text.endsWith('safety over speed when crossing streets.'));
    assert.equal(res.text.length, 1021);
    assert.equal(text.join(''), res.text);
    assert.ok(!res.text.includes('straightforward question'), 'no thinking in the answer');
    assert.equal(res.reasoning?.source, 'anthropic');
    assert.ok(res.reasoning?.text.startsWith('This is a straightforward question about pedestrian safety. I should provide clear, helpful advice'));
    assert.equal(reasoning.join(''), res.reasoning?.text);
    const blocks = res.reasoning?.blocks ?? [];
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0].type, 'thinking');
    const b = blocks[0] as { thinking: string; signature: string };
    assert.equal(b.thinking, res.reasoning?.text);
    assert.ok(b.signature.startsWith('EvMCCkYICxgCKkCHP2cSuEdcJK/0rFwqES/ecn+VurRpNTwI4XNyM0vnNfGsc9OmE8YYHauwBZ'));
    assert.ok(b.signature.endsWith('zDvP/UhjfQYAQ=='));
    assert.equal(b.signature.length, 504);
    assert.deepEqual(server.requests[0].body.thinking, { type: 'enabled', budget_tokens: 1024 });
    assert.ok((server.requests[0].body.max_tokens as number) > 1024, 'max_tokens exceeds the thinking budget');
  });

  it('redacted thinking comes back as its opaque data, in no text', async () => {
    server.enqueue({ recording: 'redacted-thinking' });
    const { res } = await run(client({ model: 'claude-sonnet-4-5-20250929' }), hello);
    const blocks = res.reasoning?.blocks ?? [];
    assert.deepEqual(blocks.map((b) => b.type), ['redacted_thinking', 'redacted_thinking']);
    assert.ok((blocks[0] as { data: string }).data.startsWith('EqkECkYIBxgCKkA8AZ4noDfV5VcOJe'));
    assert.ok(res.text.startsWith("I notice that you've sent what appears to be some kind of test string or command"));
    assert.ok(!res.text.includes('EqkECk'));
    assert.deepEqual(res.usage, { promptTokens: 92, completionTokens: 189, cachedTokens: 0, cacheWriteTokens: 0 });
  });

  it("a tool call: its id and the arguments assembled from input_json_delta pieces; a server tool's call is not one; tool_use as \"tool_calls\"", async () => {
    server.enqueue({ recording: 'tool-search-input-json' });
    const { res } = await run(client({ model: 'claude-sonnet-4-5' }), hello);
    assert.equal(res.toolCalls.length, 1);
    assert.equal(res.toolCalls[0].id, 'toolu_01EFn5wTNBYA8Reni8rbmnHT');
    assert.equal(res.toolCalls[0].name, 'get_exchange_rate');
    assert.equal(res.toolCalls[0].arguments, '{"from_currency": "USD", "to_currency": "EUR"}');
    assert.equal(res.finishReason, 'tool_calls');
    assert.ok(res.text.startsWith('Let me search for a tool that can provide current exchange rate information.'));
    assert.ok(res.text.endsWith('urrent USD to EUR exchange rate for you.'));
    assert.deepEqual(res.usage, { promptTokens: 1591, completionTokens: 175, cachedTokens: 0, cacheWriteTokens: 0 });
  });

  it('a call of a tool without arguments has "{}" for arguments', async () => {
    server.enqueue({ recording: 'tool-use-no-args' });
    const { res } = await run(client(), hello);
    assert.deepEqual(res.toolCalls, [{ id: 'toolu_01CzN6riCPqw4pVSuTd9Dwn7', name: 'pelican_name_generator', arguments: '{}' }]);
    assert.equal(res.finishReason, 'tool_calls');
  });

  it('a tool-using turn with thinking: round 2 sends the thinking block back verbatim, then tool_use, then the result as tool_result; tools and system are byte-identical', async () => {
    server.enqueue({ recording: 'thinking-tool-chain.1' }, { recording: 'thinking-tool-chain.2' });
    const c = client({ thinkingBudgetTokens: 1024 });
    const tools = [fixedVersionTool];
    const user = 'Use the fixed_version tool. Then tell me the version and make one short joke about it. Think about it first.';
    const first: WireMessage[] = [{ role: 'system', content: SYSTEM }, { role: 'user', content: user }];
    const r1: ModelResponse = (await run(c, { messages: first, tools })).res;
    assert.equal(r1.text, '');
    assert.equal(r1.finishReason, 'tool_calls');
    assert.deepEqual(r1.toolCalls, [{ id: 'toolu_01825dXWLSoJwCst1qTsiWdb', name: 'fixed_version', arguments: '{}' }]);
    assert.ok(r1.reasoning?.blocks?.length === 1);

    const second: WireMessage[] = [
      ...first,
      { role: 'assistant', content: r1.text || null, tool_calls: r1.toolCalls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } })), reasoning: { ...r1.reasoning!, toolTurn: true } },
      { role: 'tool', tool_call_id: 'toolu_01825dXWLSoJwCst1qTsiWdb', content: '0.32a0' },
    ];
    const { res: r2 } = await run(c, { messages: second, tools });
    assert.ok(r2.text.startsWith('The version is **0.32a0**.'));
    assert.equal(r2.finishReason, 'stop');

    const [q1, q2] = server.requests;
    // What the real client sent back in the recording is what we send back: the thinking block, signature and all.
    const recorded = recording('thinking-tool-chain.2').recordedRequest!.messages[1] as { role: string; content: unknown[] };
    const sent = q2.body.messages[1];
    assert.equal(sent.role, 'assistant');
    assert.deepEqual(sent.content[0], recorded.content[0]);
    assert.deepEqual(sent.content[1], recorded.content[1]);
    assert.deepEqual(q2.body.messages[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01825dXWLSoJwCst1qTsiWdb', content: '0.32a0', cache_control: { type: 'ephemeral' } }] });
    // The cached prefix: everything before the messages is the same bytes in both requests.
    const prefix = q1.raw.slice(0, q1.raw.indexOf('"messages":'));
    assert.ok(prefix.includes('"tools":') && prefix.includes('"system":'), prefix);
    assert.ok(q2.raw.startsWith(prefix), 'round 2 starts with round 1\'s tools and system, byte for byte');
    // Breakpoints: last tool, system, last message (the earlier last message no longer carries one).
    for (const q of [q1, q2]) assert.equal(q.raw.match(/"cache_control":/g)?.length, 3);
    assert.deepEqual(q1.body.messages[0].content, [{ type: 'text', text: user, cache_control: { type: 'ephemeral' } }]);
    assert.deepEqual(q2.body.messages[0].content, [{ type: 'text', text: user }]);
  });

  it('model.cacheHints "off" sends no breakpoint', async () => {
    server.enqueue({ recording: 'text-haiku' });
    await run(client({ cacheHints: 'off' }), { ...hello, tools: [fixedVersionTool] });
    assert.ok(!server.requests[0].raw.includes('cache_control'));
  });

  describe('errors: what the user reads names the endpoint and model, quotes Anthropic, never shows the key', () => {
    const named = (e: ModelError) => {
      assert.ok(e.message.includes(server.baseUrl), e.message);
      assert.ok(e.message.includes('"claude-haiku-4-5-20251001"'), e.message);
      assert.ok(!e.message.includes(KEY) && !e.message.includes('sk-ant'), e.message);
    };

    it('401 authentication_error: auth, with Anthropic\'s words', async () => {
      server.enqueue({ recording: 'auth-401' });
      const e = await failure(client(), hello);
      assert.equal(e.kind, 'auth');
      assert.equal(e.status, 401);
      assert.match(e.message, /^Authentication failed \(HTTP 401\) at .*check the API key.*; the server said: invalid x-api-key$/);
      named(e);
    });

    it('404 not_found_error: not_found, naming the model', async () => {
      server.enqueue({ recording: 'not-found-404' });
      const e = await failure(client(), hello);
      assert.equal(e.kind, 'not_found');
      assert.match(e.message, /the server said: model: claude-does-not-exist$/);
      named(e);
    });

    it('400 "prompt is too long": context_length', async () => {
      server.enqueue({ recording: 'prompt-too-long-400' });
      const e = await failure(client({ maxRetries: 2 }), hello);
      assert.equal(e.kind, 'context_length');
      assert.match(e.message, /the server said: prompt is too long: 208310 tokens > 200000 maximum$/);
      assert.equal(server.requests.length, 1, 'not retried');
      named(e);
    });

    it('529 overloaded_error is retried, and the retry succeeds', async () => {
      server.enqueue({ recording: 'overloaded-529' }, { recording: 'text-haiku' });
      const { res, retries } = await run(client({ maxRetries: 1 }), hello);
      assert.equal(res.text, 'Hello');
      assert.equal(retries.length, 1);
      assert.match(retries[0].reason, /^Overloaded \(HTTP 529\) at .*; the server said: Overloaded$/);
      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[1].raw, server.requests[0].raw, 'the same request again');
    });

    it('529 with no retries left: a server error saying so', async () => {
      server.enqueue({ recording: 'overloaded-529' });
      const e = await failure(client(), hello);
      assert.equal(e.kind, 'server');
      assert.equal(e.status, 529);
      named(e);
    });

    it('429 rate_limit_error: rate_limited, retried after the retry-after the server asked for', async () => {
      server.enqueue({ recording: 'rate-limit-429' }, { recording: 'rate-limit-429' });
      const errors: string[] = [];
      const c = client({ maxRetries: 1 });
      const retries: number[] = [];
      try {
        await c.complete(hello, { onRetry: (r) => retries.push(r.delayMs) }, signal());
      } catch (e) {
        errors.push((e as ModelError).kind, (e as Error).message);
      }
      assert.deepEqual(retries, [1000], 'retry-after: 1 -> 1000 ms');
      assert.equal(errors[0], 'rate_limited');
      assert.match(errors[1], /^Rate limited \(HTTP 429\) by .*; the server said: This request would exceed your account's rate limit\. Please try again later\. \(gave up after 1 retry\)$/);
    });

    it('an error event in the stream before any text: a retryable server error naming overloaded_error', async () => {
      server.enqueue({ recording: 'stream-error-event' });
      const e = await failure(client(), hello);
      assert.equal(e.kind, 'server');
      assert.match(e.message, /^The stream from .* reported an error \(overloaded_error\); the server said: Overloaded$/);
      named(e);
      server.enqueue({ recording: 'stream-error-event' }, { recording: 'text-haiku' });
      const { res, retries } = await run(client({ maxRetries: 1 }), hello);
      assert.equal(res.text, 'Hello');
      assert.equal(retries.length, 1);
    });
  });

  it('cancellation while waiting for the answer: cancelled', async () => {
    server.enqueue({ hold: 'before-headers' });
    const ctrl = new AbortController();
    const p = client().complete(hello, {}, ctrl.signal);
    setTimeout(() => ctrl.abort(), 100);
    await assert.rejects(p, (e: unknown) => e instanceof ModelError && e.kind === 'cancelled');
  });

  it('a stream that goes silent: timeout after model.requestTimeoutS, and retried', async () => {
    server.enqueue({ hold: 'after-headers' }, { recording: 'text-haiku' });
    const { res, retries } = await run(client({ requestTimeoutS: 0.3, maxRetries: 1 }), hello);
    assert.equal(res.text, 'Hello');
    assert.match(retries[0].reason, /went silent for more than 0\.3s/);
  });
});
