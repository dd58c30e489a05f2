import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { recordedCase } from '../../fixtures/provider-cases';
import { createAnthropicClient } from '../../../extension/core/model/anthropic/client';
import { startReplayServer } from '../model/anthropic/replay-server';

/** Whole turns on what real providers sent (test/fixtures/providers): what is stored, shown and sent back. */
describe('agent turns on recorded provider responses', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));
  const signal = () => new AbortController().signal;
  const assistants = (body: any) => body.messages.filter((m: any) => m.role === 'assistant');

  it('DeepSeek thinking with tools: reasoning_content goes back in every later request of a turn that called tools, never for a turn that did not', async () => {
    const tool = recordedCase('deepseek', 'tool-call-cache-hit-stream');
    const answer = recordedCase('deepseek', 'reasoning-content-stream');
    h = await createHarness({ settings: { 'model.name': tool.model } });
    h.server.enqueue(...tool.steps, ...answer.steps, ...answer.steps, ...answer.steps);
    const s = h.agent.newSession();
    assert.equal((await h.agent.runTurn(s, 'weather in SF?', signal())).reason, 'done');
    assert.equal((await h.agent.runTurn(s, 'hello', signal())).reason, 'done');
    assert.equal((await h.agent.runTurn(s, 'and again', signal())).reason, 'done');
    const [, second, third, fourth] = h.bodies();
    // The tool round's assistant message carries its reasoning back within the turn ...
    assert.deepEqual(assistants(second).map((m: any) => m.reasoning_content), [tool.expect.reasoning]);
    // ... and in every later turn, with the turn's final answer (the whole turn called tools).
    assert.deepEqual(assistants(third).map((m: any) => m.reasoning_content), [tool.expect.reasoning, answer.expect.reasoning]);
    // Turn 2 called no tools: its reasoning is never sent; turn 1's still is, byte for byte as before.
    assert.deepEqual(assistants(fourth).map((m: any) => m.reasoning_content), [tool.expect.reasoning, answer.expect.reasoning, undefined]);
    assert.equal(JSON.stringify(fourth.messages.slice(0, 4)), JSON.stringify(third.messages.slice(0, 4)), 'the earlier turn is sent with the same bytes (the cache prefix holds)');
    assert.ok(assistants(fourth).every((m: any) => !('reasoning' in m)), 'the internal reasoning record is never sent as it is');
    // What the user sees: reasoning as its own stream, the answer without it; the store keeps both.
    const reasoning = h.events.filter((e) => e.type === 'reasoning.delta').map((e: any) => e.text).join('');
    assert.equal(reasoning, tool.expect.reasoning + answer.expect.reasoning.repeat(3));
    const text = h.events.filter((e) => e.type === 'text.delta').map((e: any) => e.text).join('');
    assert.equal(text, answer.expect.text.repeat(3));
    const stored = h.store.getMessages(s.id).filter((m) => m.role === 'assistant') as any[];
    assert.equal(stored[0].reasoning.text, tool.expect.reasoning);
    assert.equal(stored[0].reasoning.source, 'reasoning_content');
    assert.equal(stored[1].content, answer.expect.text);
  });

  it('<think> blocks in the content (Groq, Hugging Face): kept out of the answer and the store\'s content, and never sent back', async () => {
    const think = recordedCase('groq', 'think-tag-json');
    h = await createHarness({ settings: { 'model.name': think.model } });
    h.server.enqueue(...think.steps, { text: 'ok' });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'what is 2+2?', signal());
    assert.equal(r.text.trim(), '4');
    await h.agent.runTurn(s, 'thanks', signal());
    const sent = assistants(h.bodies()[1]);
    assert.equal(sent[0].content.trim(), '4');
    assert.ok(!JSON.stringify(h.bodies()[1]).includes('<think>'), 'no <think> block is sent back');
    assert.ok(!('reasoning_content' in sent[0]));
    const stored = h.store.getMessages(s.id).find((m) => m.role === 'assistant') as any;
    assert.equal(stored.reasoning.source, 'think_tag');
    assert.match(stored.reasoning.text, /sum of 2 and 2/);
  });

  it('Mistral Magistral: an answer sent as content parts is the answer (not empty), its thinking parts the reasoning', async () => {
    const parts = recordedCase('mistral', 'magistral-thinking-parts-stream');
    h = await createHarness({ settings: { 'model.name': parts.model } });
    h.server.enqueue(...parts.steps);
    const r = await h.agent.runTurn(h.agent.newSession(), 'question', signal());
    assert.equal(r.reason, 'done');
    assert.equal(r.text, parts.expect.text);
    assert.ok(r.text.length > 0);
    const reasoning = h.events.filter((e) => e.type === 'reasoning.delta').map((e: any) => e.text).join('');
    assert.equal(reasoning, parts.expect.reasoning);
  });

  it('finish_reason length without tool calls: the cut answer is kept and the turn says it was cut', async () => {
    const cut = recordedCase('deepseek', 'finish-length-stream');
    h = await createHarness({ settings: { 'model.name': cut.model } });
    h.server.enqueue(...cut.steps);
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'invent a holiday', signal());
    assert.equal(r.reason, 'error');
    const err = h.events.find((e) => e.type === 'error') as any;
    assert.equal(err.kind, 'length');
    assert.match(err.message, /cut off at the model's output limit \(finish_reason "length"\).*maxOutputTokens/);
    assert.equal((h.store.getMessages(s.id).at(-1) as any).content, cut.expect.text, 'what arrived is stored');
  });

  it('finish_reason length with a tool call: the cut call never runs, the model gets one more round; a second cut ends the turn', async () => {
    h = await createHarness({ files: { 'a.txt': 'alpha\n' } });
    h.server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'write_file', arguments: '{"path":"a.txt","content":"trunc' }], finishReason: 'length' },
      { toolCalls: [{ id: 'c2', name: 'read_file', arguments: '{"path":"a.txt"}' }], finishReason: 'length' },
    );
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'edit a', signal());
    assert.equal(r.reason, 'error');
    assert.equal(r.rounds, 2);
    const results = h.events.filter((e) => e.type === 'tool.result') as any[];
    assert.deepEqual(results.map((e) => [e.callId, e.ok, e.errorCode]), [['c1', false, 'not_run'], ['c2', false, 'not_run']]);
    assert.match(results[0].result, /^error \(not_run\): not run: the model's answer was cut off/);
    assert.equal(fs.readFileSync(`${h.workspace}/a.txt`, 'utf8'), 'alpha\n', 'nothing was written');
    const second = h.bodies()[1].messages;
    assert.equal(second.at(-1).role, 'tool', 'the second request carries the not-run result');
    assert.equal((h.events.find((e) => e.type === 'error') as any).kind, 'length');
  });

  it('finish_reason content_filter: the turn says the provider\'s filter stopped it, and no call of it runs', async () => {
    h = await createHarness();
    h.server.enqueue({ text: 'Here is', toolCalls: [{ id: 'f1', name: 'list_dir', arguments: '{}' }], finishReason: 'content_filter' });
    const r = await h.agent.runTurn(h.agent.newSession(), 'go', signal());
    assert.equal(r.reason, 'error');
    const err = h.events.find((e) => e.type === 'error') as any;
    assert.equal(err.kind, 'content_filter');
    assert.match(err.message, /content filter stopped the answer.*its tool calls were not run/);
    assert.deepEqual((h.events.filter((e) => e.type === 'tool.result') as any[]).map((e) => e.errorCode), ['not_run']);
    assert.equal(h.bodies().length, 1);
  });

  it('Gemini: a tool call\'s thought signature (extra_content) goes back with the call, verbatim', async () => {
    h = await createHarness({ settings: { 'model.name': 'gemini-3-pro-preview' } });
    const extra = { google: { thought_signature: 'CsYBAXLI2nx+sig==' } };
    h.server.enqueue(
      { fault: { contentType: 'text/event-stream', body: `data: ${JSON.stringify({ id: 'g', object: 'chat.completion.chunk', created: 1, model: 'gemini-3-pro-preview', choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'g1', type: 'function', function: { name: 'list_dir', arguments: '{}' }, extra_content: extra }] }, finish_reason: 'tool_calls' }] })}\n\ndata: [DONE]\n\n` } },
      { text: 'done' },
    );
    await h.agent.runTurn(h.agent.newSession(), 'list', signal());
    const call = assistants(h.bodies()[1])[0].tool_calls[0];
    assert.deepEqual(call, { id: 'g1', type: 'function', function: { name: 'list_dir', arguments: '{}' }, extra_content: extra });
  });

  /** Every recorded case whose answer is a tool call, as a whole turn: the call runs, the answer follows, the call goes back as it came. */
  const toolCases: Array<[string, string]> = [
    ['deepseek', 'tool-call-cache-hit-stream'],
    ['fireworks', 'stream-options-refused-then-answer'],
    ['gemini', 'tool-call-empty-id-thought-signature'],
    ['groq', 'tool-call-stream'],
    ['mistral', 'tool-call-stream'],
    ['ollama', 'reasoning-tool-call-json'],
    ['openai', 'parallel-tool-calls-stream'],
    ['xai', 'reasoning-tool-call-cached-stream'],
  ];
  for (const [provider, name] of toolCases) {
    it(`${provider} (${name}): a tool-using turn completes on the recorded reply`, async () => {
      const rec = recordedCase(provider, name);
      h = await createHarness({ settings: { 'model.name': rec.model } });
      h.server.enqueue(...rec.steps, { text: 'All done.' });
      const s = h.agent.newSession();
      const r = await h.agent.runTurn(s, 'use the tool', signal());
      assert.equal(r.reason, 'done', r.error);
      assert.equal(r.text, 'All done.');
      const results = h.events.filter((e) => e.type === 'tool.result') as any[];
      assert.equal(results.length, rec.expect.toolCalls.length);
      const last = h.bodies().at(-1);
      const sent = assistants(last)[0];
      assert.deepEqual(sent.tool_calls.map((c: any) => [c.function.name, c.function.arguments]), rec.expect.toolCalls.map((c: any) => [c.name, c.arguments]));
      const answered = last.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.tool_call_id);
      assert.deepEqual(answered, sent.tool_calls.map((c: any) => c.id), 'each call has its result, by id');
      assert.ok(sent.tool_calls.every((c: any) => typeof c.id === 'string' && c.id.length > 0), 'every call has an id (Gemini sends empty ones)');
    });
  }

  it('Anthropic (native Messages API): a tool-using turn on recorded streams: the call runs, its tool_result goes back with the tool_use id, the breakpoints stay on tools, system and the last message', async () => {
    const replay = await startReplayServer();
    try {
      const client = createAnthropicClient({ baseUrl: replay.baseUrl, apiKey: 'sk-ant-test', model: 'claude-haiku-4-5-20251001', requestTimeoutS: 10, maxRetries: 0, retryBaseDelayMs: 1 });
      h = await createHarness({ client, settings: { 'model.name': 'claude-haiku-4-5-20251001', 'model.provider': 'anthropic' } });
      replay.enqueue({ recording: 'tool-use-no-args' }, { recording: 'text-haiku' });
      const r = await h.agent.runTurn(h.agent.newSession(), 'what time is it?', signal());
      assert.equal(r.reason, 'done', r.error);
      assert.equal(replay.requests.length, 2);
      const second = replay.requests[1].body as any;
      const use = second.messages.find((m: any) => m.role === 'assistant').content.find((b: any) => b.type === 'tool_use');
      const result = second.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'tool_result');
      assert.equal(result.tool_use_id, use.id);
      const marks = (JSON.stringify(second).match(/"cache_control"/g) ?? []).length;
      assert.ok(marks >= 2 && marks <= 4, `${marks} breakpoints`);
      assert.ok(second.tools.at(-1).cache_control, 'the tools block ends with a breakpoint');
      const usage = h.events.filter((e) => e.type === 'usage') as any[];
      assert.equal(usage.length, 2);
    } finally {
      await replay.close();
    }
  });
});
