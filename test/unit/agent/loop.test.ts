import assert from 'node:assert/strict';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

describe('agent loop against the scripted server', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  it('streams a plain answer and stores the turn', async () => {
    h = await createHarness();
    h.server.enqueue({ text: 'Hello there, **friend**.', usage: { prompt_tokens: 120, completion_tokens: 7, cached_tokens: 64 } });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'hi', new AbortController().signal);
    assert.equal(r.reason, 'done');
    assert.equal(r.text, 'Hello there, **friend**.');
    const deltas = h.events.filter((e) => e.type === 'text.delta');
    assert.ok(deltas.length > 1, 'text arrives in several deltas');
    assert.equal(deltas.map((e) => (e as { text: string }).text).join(''), 'Hello there, **friend**.');
    const usage = h.events.find((e) => e.type === 'usage') as any;
    assert.deepEqual(usage.usage, { promptTokens: 120, completionTokens: 7, cachedTokens: 64 });
    assert.deepEqual(h.store.getMessages(s.id).map((m) => m.role), ['user', 'assistant']);
    assert.equal(h.store.getSession(s.id)!.title, 'hi');
    const body = h.bodies()[0];
    assert.equal(body.stream, true);
    assert.equal(body.messages[0].role, 'system');
    assert.deepEqual(body.messages[1], { role: 'user', content: 'hi' });
    assert.deepEqual(h.events.map((e) => e.type).filter((t) => t.startsWith('turn')), ['turn.start', 'turn.end']);
  });

  it('runs two tool rounds, parallel calls in order, results appended with their call ids', async () => {
    h = await createHarness({ files: { 'a.txt': 'alpha\nbeta\n', 'b.txt': 'gamma\n' } });
    h.server.enqueue(
      {
        toolCalls: [
          { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
          { id: 'call_b', name: 'read_file', arguments: '{"path":"b.txt"}' },
        ],
      },
      { toolCalls: [{ id: 'call_c', name: 'grep', arguments: '{"pattern":"gamma"}' }] },
      { text: 'a has two lines; gamma is in b.txt' },
    );
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'look', new AbortController().signal);
    assert.equal(r.reason, 'done');
    assert.equal(r.rounds, 3);
    const calls = h.events.filter((e) => e.type === 'tool.call').map((e) => (e as any).callId);
    assert.deepEqual(calls, ['call_a', 'call_b', 'call_c']);
    const second = h.bodies()[1].messages;
    const tools = second.filter((m: any) => m.role === 'tool');
    assert.deepEqual(tools.map((m: any) => m.tool_call_id), ['call_a', 'call_b']);
    assert.match(tools[0].content, /alpha/);
    assert.match(tools[1].content, /gamma/);
    assert.equal(second.find((m: any) => m.role === 'assistant').tool_calls.length, 2);
    const third = h.bodies()[2].messages;
    assert.match(third[third.length - 1].content, /b\.txt/);
    const stored = h.store.getMessages(s.id);
    assert.deepEqual(stored.map((m) => m.role), ['user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant']);
  });

  it('retries a 429 (honouring Retry-After) and a 500, then succeeds', async () => {
    h = await createHarness();
    h.server.enqueue({ fault: { status: 429, retryAfterS: 0.05 } }, { fault: { status: 500 } }, { text: 'ok' });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'x', new AbortController().signal);
    assert.equal(r.reason, 'done');
    assert.equal(h.bodies().length, 3);
    const retries = h.events.filter((e) => e.type === 'retry');
    assert.equal(retries.length, 2);
    assert.ok((retries[0] as any).delayMs >= 50, 'Retry-After honoured');
  });

  it('a 500 beyond the retries ends the turn with a clear error and an intact transcript', async () => {
    h = await createHarness({ maxRetries: 1 });
    h.server.enqueue({ fault: { status: 500, message: 'boom' } }, { fault: { status: 500, message: 'boom' } });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'x', new AbortController().signal);
    assert.equal(r.reason, 'error');
    const err = h.events.find((e) => e.type === 'error') as any;
    assert.match(err.message, /500/);
    assert.match(err.message, /gpt-4o/);
    assert.doesNotMatch(err.message, /sk-test-secret/);
    assert.deepEqual(h.store.getMessages(s.id).map((m) => m.role), ['user']);
  });

  it('a stream cut mid-way after text ends in a clear error; earlier rounds stay stored', async () => {
    h = await createHarness({ files: { 'a.txt': 'a\n' } });
    h.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path":"a.txt"}' }] }, { text: 'a long answer that will be cut somewhere in the middle', fault: { cutAfterChunks: 3 } });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'x', new AbortController().signal);
    assert.equal(r.reason, 'error');
    assert.equal((h.events.find((e) => e.type === 'error') as any).kind, 'stream_cut');
    assert.deepEqual(h.store.getMessages(s.id).map((m) => m.role), ['user', 'assistant', 'tool']);
  });

  it('malformed tool arguments reach the model as invalid_arguments naming the tool; the turn goes on', async () => {
    h = await createHarness({ files: { 'a.txt': 'a\n' } });
    h.server.enqueue({ toolCalls: [{ id: 'bad', name: 'read_file', arguments: '{"path": "a.txt"' }] }, { toolCalls: [{ name: 'read_file', arguments: '{"path":"a.txt"}' }] }, { text: 'done' });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'x', new AbortController().signal);
    assert.equal(r.reason, 'done');
    const toolMsg = h.bodies()[1].messages.find((m: any) => m.role === 'tool' && m.tool_call_id === 'bad');
    assert.match(toolMsg.content, /invalid_arguments/);
    assert.match(toolMsg.content, /read_file/);
    const stored = h.store.getMessages(s.id).find((m) => m.role === 'assistant' && m.toolCalls?.[0]?.id === 'bad') as any;
    assert.equal(stored.toolCalls[0].arguments, '{"path": "a.txt"', 'the malformed arguments are stored verbatim');
  });

  it('a slow first byte past the timeout ends the turn with a timeout error', async () => {
    h = await createHarness({ requestTimeoutS: 1, maxRetries: 0 });
    h.server.enqueue({ text: 'late', fault: { firstByteDelayMs: 3000 } });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'x', new AbortController().signal);
    assert.equal(r.reason, 'error');
    assert.equal((h.events.find((e) => e.type === 'error') as any).kind, 'timeout');
  });

  it('cancellation mid-stream ends the turn as cancelled', async () => {
    h = await createHarness();
    h.server.enqueue({ text: 'slow', fault: { firstByteDelayMs: 5000 } });
    const s = h.agent.newSession();
    const c = new AbortController();
    setTimeout(() => c.abort(), 200);
    const r = await h.agent.runTurn(s, 'x', c.signal);
    assert.equal(r.reason, 'cancelled');
    assert.equal((h.events.at(-1) as any).reason, 'cancelled');
  });

  it('cancellation mid-tool kills the command and records a cancelled result for every call', async () => {
    h = await createHarness();
    h.server.enqueue({
      toolCalls: [
        { id: 's1', name: 'shell', arguments: '{"command":"sleep 30"}' },
        { id: 's2', name: 'shell', arguments: '{"command":"echo never"}' },
      ],
    });
    const s = h.agent.newSession();
    const c = new AbortController();
    h.agent.onEvent((e) => e.type === 'tool.call' && setTimeout(() => c.abort(), 300));
    const r = await h.agent.runTurn(s, 'x', c.signal);
    assert.equal(r.reason, 'cancelled');
    const tools = h.store.getMessages(s.id).filter((m) => m.role === 'tool') as any[];
    assert.deepEqual(tools.map((t) => [t.toolCallId, t.errorCode]), [
      ['s1', 'cancelled'],
      ['s2', 'cancelled'],
    ]);
  });

  it('stops at agent.maxRounds with a clear message', async () => {
    h = await createHarness({ settings: { 'agent.maxRounds': 2 } });
    h.server.setResponder((_b, i) => ({ toolCalls: [{ name: 'glob', arguments: JSON.stringify({ pattern: `*.${i}` }) }] }));
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'x', new AbortController().signal);
    assert.equal(r.reason, 'max_rounds');
    assert.equal(h.bodies().length, 2);
    assert.match((h.events.find((e) => e.type === 'error') as any).message, /agent\.maxRounds/);
  });

  it('a resumed session continues with the full stored transcript', async () => {
    h = await createHarness({ files: { 'a.txt': 'a\n' } });
    h.server.enqueue({ toolCalls: [{ id: 'r1', name: 'read_file', arguments: '{"path":"a.txt"}' }] }, { text: 'first' }, { text: 'second' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'one', new AbortController().signal);
    await h.store.commitRound();
    // A fresh agent on the same store, as after a restart.
    const again = h.reopen();
    const resumed = again.openSession(s.id)!;
    assert.equal(resumed.messages.length, 4);
    const r = await again.runTurn(resumed, 'two', new AbortController().signal);
    assert.equal(r.text, 'second');
    const last = h.bodies()[2].messages;
    assert.deepEqual(last.map((m: any) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });
});
