import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';

describe('scripted OpenAI-compatible server (against the openai SDK)', () => {
  let srv: ScriptedServer;
  let client: OpenAI;

  beforeEach(async () => {
    srv = await startScriptedServer({ models: ['m-one', 'm-two'] });
    client = new OpenAI({ baseURL: srv.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
  });
  afterEach(() => srv.close());

  async function collect(body: Partial<OpenAI.ChatCompletionCreateParamsStreaming> = {}) {
    const stream = await client.chat.completions.create({
      model: 'm-one',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
      ...body,
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    return chunks;
  }

  it('lists models', async () => {
    const page = await client.models.list();
    assert.deepEqual(page.data.map((m) => m.id), ['m-one', 'm-two']);
    assert.equal(srv.requests[0]!.path, '/v1/models');
    assert.equal(srv.requests[0]!.method, 'GET');
  });

  it('streams text in several deltas, a finish chunk and a usage chunk with cached tokens', async () => {
    srv.enqueue({ text: 'Hello there, scripted world!', usage: { prompt_tokens: 100, completion_tokens: 7, cached_tokens: 64 } });
    const chunks = await collect();
    const deltas = chunks.flatMap((c) => (c.choices[0]?.delta.content ? [c.choices[0].delta.content] : []));
    assert.ok(deltas.length >= 3, `expected several deltas, got ${deltas.length}`);
    assert.equal(deltas.join(''), 'Hello there, scripted world!');
    assert.equal(chunks[0]!.choices[0]!.delta.role, 'assistant');
    assert.equal(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason, 'stop');
    const last = chunks.at(-1)!;
    assert.deepEqual(last.choices, []);
    assert.equal(last.usage?.prompt_tokens, 100);
    assert.equal(last.usage?.completion_tokens, 7);
    assert.equal(last.usage?.prompt_tokens_details?.cached_tokens, 64);
  });

  it('omits the usage chunk when include_usage is not requested, and estimates usage when not scripted', async () => {
    srv.enqueue({ text: 'a' }, { text: 'b' });
    const chunks = await collect({ stream_options: undefined });
    assert.ok(chunks.every((c) => !c.usage));
    const withUsage = await collect();
    const usage = withUsage.at(-1)!.usage!;
    assert.ok(usage.prompt_tokens >= Math.floor(srv.requests[1]!.raw.length / 4));
    assert.equal(usage.prompt_tokens_details?.cached_tokens, 0);
  });

  it('splits parallel tool calls across chunks with indexes, ids and argument pieces', async () => {
    srv.enqueue({
      text: 'Looking.',
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"src/a.ts"}' },
        { name: 'grep', arguments: '{"pattern":"foo","glob":"*.ts"}' },
      ],
    });
    const chunks = await collect();
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const byIndex = new Map<number, { id?: string; name?: string; args: string; pieces: number }>();
    for (const d of toolDeltas) {
      const cur = byIndex.get(d.index) ?? { args: '', pieces: 0 };
      if (d.id) cur.id = d.id;
      if (d.function?.name) cur.name = d.function.name;
      if (d.function?.arguments) {
        cur.args += d.function.arguments;
        cur.pieces++;
      }
      byIndex.set(d.index, cur);
    }
    assert.deepEqual([...byIndex.keys()], [0, 1]);
    assert.equal(byIndex.get(0)!.id, 'call_a');
    assert.equal(byIndex.get(0)!.name, 'read_file');
    assert.deepEqual(JSON.parse(byIndex.get(0)!.args), { path: 'src/a.ts' });
    assert.equal(byIndex.get(1)!.id, 'call_0_1');
    assert.equal(byIndex.get(1)!.name, 'grep');
    assert.deepEqual(JSON.parse(byIndex.get(1)!.args), { pattern: 'foo', glob: '*.ts' });
    assert.ok(byIndex.get(1)!.pieces > 1, 'arguments arrive in pieces');
    assert.equal(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason, 'tool_calls');
  });

  it('answers non-streaming requests with one chat.completion', async () => {
    srv.enqueue({ toolCalls: [{ name: 'shell', arguments: '{"cmd":"ls"}' }], usage: { cached_tokens: 5 } });
    const res = await client.chat.completions.create({ model: 'm-two', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(res.object, 'chat.completion');
    assert.equal(res.model, 'm-two');
    assert.equal(res.choices[0]!.finish_reason, 'tool_calls');
    const call = res.choices[0]!.message.tool_calls![0]!;
    assert.equal(call.type === 'function' && call.function.name, 'shell');
    assert.equal(res.usage?.prompt_tokens_details?.cached_tokens, 5);
  });

  it('records every request: path, headers, parsed body and exact raw bytes', async () => {
    srv.enqueue({ text: 'ok' });
    await collect({ messages: [{ role: 'user', content: 'recorded ✓' }] });
    const r = srv.chatRequests()[0]!;
    assert.equal(r.path, '/v1/chat/completions');
    assert.equal(r.headers.authorization, 'Bearer sk-test');
    assert.equal(r.body.messages[0].content, 'recorded ✓');
    assert.deepEqual(JSON.parse(r.raw), r.body);
  });

  it('sends malformed tool arguments verbatim', async () => {
    srv.enqueue({ toolCalls: [{ name: 'edit_file', arguments: '{"path": "a.ts", "old": ' }] });
    const chunks = await collect();
    const args = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).map((d) => d.function?.arguments ?? '').join('');
    assert.equal(args, '{"path": "a.ts", "old": ');
  });

  it('injects a 429 with Retry-After, then serves the next step', async () => {
    srv.enqueue({ fault: { status: 429, retryAfterS: 7 } }, { text: 'after' });
    const err = await collect().catch((e) => e);
    assert.ok(err instanceof OpenAI.RateLimitError);
    assert.equal(err.headers?.get('retry-after'), '7');
    const chunks = await collect();
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'after');
  });

  it('injects error statuses with OpenAI-style bodies', async () => {
    srv.enqueue({ fault: { status: 500 } }, { fault: { status: 400, code: 'context_length_exceeded', message: 'maximum context length is 8192 tokens' } });
    const e500 = await collect().catch((e) => e);
    assert.ok(e500 instanceof OpenAI.InternalServerError);
    const e400 = await collect().catch((e) => e);
    assert.ok(e400 instanceof OpenAI.BadRequestError);
    assert.equal(e400.code, 'context_length_exceeded');
    assert.match(e400.message, /maximum context length/);
  });

  it('fails loudly with a 500 when the script runs out', async () => {
    const err = await collect().catch((e) => e);
    assert.ok(err instanceof OpenAI.InternalServerError);
    assert.match(err.message, /script ran out/);
  });

  it('uses the responder when the queue is empty, with the request body and index', async () => {
    srv.enqueue({ text: 'queued' });
    const seen: number[] = [];
    srv.setResponder((body, index) => {
      seen.push(index);
      return { text: `echo ${body.messages.at(-1).content}` };
    });
    await collect();
    const chunks = await collect({ messages: [{ role: 'user', content: 'ping' }] });
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'echo ping');
    assert.deepEqual(seen, [1]);
  });

  it('cuts the stream after N chunks, so the SDK sees a broken stream', async () => {
    srv.enqueue({ text: 'this reply will never finish properly', fault: { cutAfterChunks: 3 } });
    const got: string[] = [];
    const err = await (async () => {
      const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true });
      for await (const c of stream) got.push(c.choices[0]?.delta.content ?? '');
    })().catch((e) => e);
    assert.ok(err instanceof Error, 'iteration throws');
    assert.equal(got.length, 3);
    assert.equal(got.join(''), 'this reply will ');
  });

  it('delays the first byte', async () => {
    srv.enqueue({ text: 'slow', fault: { firstByteDelayMs: 300 } });
    const slow = new OpenAI({ baseURL: srv.baseUrl, apiKey: 'k', maxRetries: 0, timeout: 50 });
    const err = await slow.chat.completions.create({ model: 'm', messages: [], stream: true }).catch((e) => e);
    assert.ok(err instanceof OpenAI.APIConnectionTimeoutError);
  });

  it('routes unknown paths to a 404 and accepts extra routes', async () => {
    srv.route('POST /v1/images/generations', ({ res }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ created: 1, data: [{ b64_json: 'AAAA' }] }));
    });
    const img = await client.images.generate({ model: 'gpt-image-1', prompt: 'a pea' });
    assert.equal(img.data?.[0]?.b64_json, 'AAAA');
    const err = await client.embeddings.create({ model: 'e', input: 'x' }).catch((e) => e);
    assert.ok(err instanceof OpenAI.NotFoundError);
  });
});
