import assert from 'node:assert/strict';
import {
  agentEventSchema,
  dispatch,
  parseHostMessage,
  parseWebviewMessage,
  type AgentEventMessage,
  type HandlerTable,
  type WebviewMessage,
} from '../../../extension/protocol';
import { agentEventSchema as coreEventSchema, type AgentEvent } from '../../../extension/core/conversation/events';

/** One example of every core event; typed as the core's AgentEvent so drift fails the typecheck too. */
const everyEvent: AgentEvent[] = [
  { type: 'turn.start', sessionId: 's', turn: 1, prompt: 'hi' },
  { type: 'round.start', sessionId: 's', round: 1 },
  { type: 'text.delta', sessionId: 's', text: 'Hel' },
  { type: 'tool.call', sessionId: 's', callId: 'c1', tool: 'read_file', args: '{"path":"a.ts"}', title: 'read a.ts', summary: '' },
  { type: 'tool.output', sessionId: 's', callId: 'c1', chunk: 'line' },
  { type: 'tool.result', sessionId: 's', callId: 'c1', tool: 'read_file', ok: false, summary: 'not found', errorCode: 'ENOENT' },
  { type: 'tools.loaded', sessionId: 's', tools: ['git_diff', 'git_commit'] },
  { type: 'usage', sessionId: 's', round: 1, usage: { promptTokens: 10, completionTokens: 2, cachedTokens: 8 } },
  { type: 'meter', sessionId: 's', round: 1, promptTokens: 10, cachedTokens: 8, completionTokens: 2, contextWindow: 128_000, deferredTools: 3, deferredTokens: 900 },
  { type: 'retry', sessionId: 's', attempt: 1, delayMs: 500, reason: '429' },
  { type: 'loop.suspected', sessionId: 's', tool: 'read_file', count: 3 },
  { type: 'error', sessionId: 's', message: 'boom', kind: 'server' },
  { type: 'compaction', sessionId: 's', trigger: 'manual', tokensBefore: 96_000, tokensAfter: 11_000, rounds: 40, summary: '## Task\nfix it', model: 'm', focus: 'keep the API design', usage: { promptTokens: 96_000, completionTokens: 900, cachedTokens: 90_000 } },
  { type: 'turn.end', sessionId: 's', reason: 'done', rounds: 2 },
  { type: 'reasoning.delta', sessionId: 's', text: 'Let me think.' },
  { type: 'mode', sessionId: 's', mode: 'plan' },
  { type: 'todos', sessionId: 's', todos: [{ text: 'read the code', status: 'done' }, { text: 'fix it', status: 'in_progress' }] },
  { type: 'cost.next', sessionId: 's', round: 2, promptTokens: 12_000, cachedTokens: 9_600, outputTokens: 300, cost: 0.0042, budget: { turn: { spent: 0.04, limit: 0.05 }, session: { spent: 0.3, limit: null } } },
  { type: 'budget.notice', sessionId: 's', text: 'Your budget (agent.budget) cannot be enforced: no price.' },
  { type: 'message.delivered', sessionId: 's', id: 'q1', text: 'use the other parser', images: [{ name: 'p.png', mime: 'image/png', width: 2, height: 1 }] },
];

const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('protocol: message schemas', () => {
  it('accepts every core agent event inside an `event` message, unchanged; the meter goes as its own message instead', () => {
    for (const event of everyEvent) {
      const r = parseHostMessage({ type: 'event', event });
      if (event.type === 'meter') {
        assert.equal(r.ok, false, 'a meter inside an event is refused: the webview takes it as a `meter` message');
        const own = parseHostMessage(event);
        assert.ok(own.ok, `the meter event as a message: ${!own.ok && own.error}`);
        assert.deepEqual(own.msg, event);
        continue;
      }
      assert.ok(r.ok, `rejected ${event.type}: ${!r.ok && r.error}`);
      assert.deepEqual(r.msg, { type: 'event', event });
    }
  });

  it('the agent event is defined once: protocol hands on the core\'s schema, and the examples above cover every event type', () => {
    assert.equal(agentEventSchema, coreEventSchema);
    const types = agentEventSchema.options.map((o) => o.shape.type.value);
    assert.deepEqual([...new Set(everyEvent.map((e) => e.type))].sort(), [...types].sort());
  });

  it('accepts the other host messages', () => {
    const msgs = [
      { type: 'init', sessionId: 's', title: 'New chat', model: 'gpt-x', loadedTools: ['read_file'], workspaceTrusted: true, setupNeeded: false },
      {
        type: 'transcript',
        sessionId: 's',
        entries: [
          { role: 'user', text: 'hi', images: [{ name: 'a.png', mime: 'image/png', width: 1, height: 1 }] },
          { role: 'assistant', text: '**hello**' },
          { role: 'tool', callId: 'c1', tool: 'read_file', args: '{}', title: 'read_file', summary: 'read a.ts', result: '...', ok: true },
          { role: 'tool', callId: 'c2', tool: 'bash', args: '{}', title: 'bash', summary: 'running' },
          { role: 'tools.loaded', tools: ['git_diff', 'git_commit'] },
        ],
      },
      { type: 'approval.request', id: 'a1', tool: 'write_file', summary: 'write .env', reason: 'protected path' },
      { type: 'ask.request', id: 'q1', question: 'Which?', choices: ['a', 'b'] },
      { type: 'budget.request', id: 'b1', model: 'gpt-4o', cost: 0.004, promptTokens: 12_000, cachedTokens: 9_600, passes: [{ scope: 'turn', limit: 0.05, spent: 0.048 }] },
      { type: 'error', message: 'no endpoint' },
      { type: 'init', sessionId: 's', title: 't', model: 'm', loadedTools: [], workspaceTrusted: true, setupNeeded: false, supportsImages: false },
      { type: 'approval.request', id: 'a2', tool: 'write_file', summary: 'write .env', reason: 'protected path', alwaysAsk: true },
      { type: 'meter', sessionId: 's', round: 2, promptTokens: 12400, cachedTokens: 9900 },
      {
        type: 'meter',
        sessionId: 's',
        round: 3,
        promptTokens: 12400,
        cachedTokens: 9900,
        completionTokens: 40,
        contextWindow: 128000,
        prunedChars: 48210,
        prunedResults: 3,
        deferredTools: 18,
        deferredTokens: 5300,
      },
      { type: 'files.result', query: 'app', paths: ['src/app.ts', 'docs/my notes.md'] },
      { type: 'event', event: { type: 'tool.result', sessionId: 's', callId: 'c1', tool: 'read_file', ok: true, summary: 'read a.ts', result: 'line 1' } },
    ];
    for (const m of msgs) {
      const r = parseHostMessage(m);
      assert.ok(r.ok, `rejected ${m.type}: ${!r.ok && r.error}`);
      assert.deepEqual(r.msg, m, `${m.type} arrives whole`);
    }
  });

  it('carries the pruned calls of a meter and the loaded-tools chips of a replay', () => {
    const stub = '[earlier shell output pruned — 8123 chars; re-run the tool if you need it again]';
    const meter = { type: 'meter', sessionId: 's', round: 9, promptTokens: 10, cachedTokens: 0, prunedResults: 1, prunedCalls: [{ callId: 'c1', stub }] };
    const r = parseHostMessage(meter);
    assert.ok(r.ok && r.msg.type === 'meter');
    assert.deepEqual(r.msg.prunedCalls, [{ callId: 'c1', stub }]);
    const t = parseHostMessage({ type: 'transcript', sessionId: 's', entries: [{ role: 'tools.loaded', tools: ['git_diff'] }] });
    assert.ok(t.ok && t.msg.type === 'transcript');
    assert.deepEqual(t.msg.entries, [{ role: 'tools.loaded', tools: ['git_diff'] }]);
  });

  it('rejects bad host messages with an error that names the message and the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /invalid host message \(object\)/],
      ['hello', /\(string\)/],
      [{ type: 'nope' }, /\(nope\)/],
      [{ type: 'event', event: { type: 'text.delta', sessionId: 's', text: 42 } }, /event\.text/],
      [{ type: 'event', event: { type: 'turn.end', sessionId: 's', reason: 'bored', rounds: 1 } }, /event\.reason/],
      [{ type: 'approval.request', id: 'a', tool: 't' }, /summary/],
      [{ type: 'meter', sessionId: 's', round: 1, promptTokens: -1, cachedTokens: 0 }, /promptTokens/],
      [{ type: 'meter', sessionId: 's', round: 1, promptTokens: 10, cachedTokens: 0, prunedChars: 1.5 }, /prunedChars/],
      [{ type: 'meter', sessionId: 's', round: 1, promptTokens: 10 }, /cachedTokens/],
      [{ type: 'meter', sessionId: 's', round: 1, promptTokens: 10, cachedTokens: 0, prunedCalls: ['c1'] }, /prunedCalls\.0/],
      [{ type: 'transcript', sessionId: 's', entries: [{ role: 'tools.loaded', tools: [] }] }, /entries\.0\.tools/],
      [{ type: 'files.result', query: 'a', paths: 'src/a.ts' }, /paths/],
      [{ type: 'files.result', query: 'a', paths: Array.from({ length: 201 }, (_, i) => `f${i}`) }, /paths/],
      [{ type: 'init', sessionId: 's', title: 't', model: 'm', loadedTools: [], workspaceTrusted: true, setupNeeded: false, supportsImages: 'yes' }, /supportsImages/],
    ];
    for (const [x, re] of cases) {
      const r = parseHostMessage(x);
      assert.equal(r.ok, false, `accepted ${JSON.stringify(x)}`);
      assert.match(!r.ok ? r.error : '', re);
    }
  });

  it('accepts the webview messages and strips unknown fields', () => {
    const msgs: WebviewMessage[] = [
      { type: 'ready' },
      { type: 'send', text: 'hello' },
      { type: 'send', text: '', images: [{ name: 'p.png', mime: 'image/png', dataBase64: tinyPng, width: 1, height: 1 }] },
      { type: 'stop' },
      { type: 'newChat' },
      { type: 'approval.reply', id: 'a1', decision: 'allowAlways' },
      { type: 'budget.reply', id: 'b1', decision: 'continue' },
      { type: 'budget.reply', id: 'b1', decision: 'raise', turn: 0.2 },
      { type: 'budget.reply', id: 'b1', decision: 'raise', session: 10 },
      { type: 'ask.reply', id: 'q1', answer: 'b' },
      { type: 'retry' },
      { type: 'insertCode', code: 'const x = 1;', language: 'ts' },
      { type: 'insertCode', code: 'plain' },
      { type: 'files.query', query: '' },
      { type: 'files.query', query: 'src/app' },
      { type: 'history' },
    ];
    for (const m of msgs) assert.deepEqual(parseWebviewMessage(m), { ok: true, msg: m });
    assert.deepEqual(parseWebviewMessage({ type: 'stop', extra: 1 }), { ok: true, msg: { type: 'stop' } });
  });

  it('rejects bad webview messages', () => {
    const bad: unknown[] = [
      { type: 'send', text: '   ' },
      { type: 'send', text: 'x', images: [{ name: 'p', mime: 'text/plain', dataBase64: tinyPng, width: 1, height: 1 }] },
      { type: 'send', text: 'x', images: [{ name: 'p', mime: 'image/png', dataBase64: `data:image/png;base64,${tinyPng}`, width: 1, height: 1 }] },
      { type: 'send', text: 'x', images: [{ name: 'p', mime: 'image/png', dataBase64: tinyPng, width: 0, height: 1 }] },
      { type: 'approval.reply', id: 'a1', decision: 'maybe' },
      { type: 'budget.reply', id: 'b1', decision: 'raise' },
      { type: 'budget.reply', id: 'b1', decision: 'raise', turn: -1 },
      { type: 'budget.reply', id: 'b1', decision: 'later' },
      { type: 'ask.reply', id: 'q1' },
      { typ: 'ready' },
      { type: 'send' },
      { type: 'insertCode' },
      { type: 'insertCode', code: 'x', language: 'x'.repeat(101) },
      { type: 'files.query' },
      { type: 'files.query', query: 'x'.repeat(501) },
    ];
    for (const x of bad) assert.equal(parseWebviewMessage(x).ok, false, `accepted ${JSON.stringify(x)}`);
  });

  it('dispatches through a handler table by message type', () => {
    const seen: string[] = [];
    const handlers: HandlerTable<AgentEventMessage, string, string[]> = {
      'turn.start': (e, log) => (log.push(`start ${e.prompt}`), 'a'),
      'round.start': () => 'b',
      'text.delta': (e, log) => (log.push(`text ${e.text}`), 'c'),
      'reasoning.delta': () => 'n',
      'tool.call': () => 'd',
      'tool.output': () => 'e',
      'tool.result': () => 'f',
      'tools.loaded': () => 'g',
      usage: () => 'h',
      retry: () => 'i',
      'loop.suspected': () => 'j',
      error: () => 'k',
      compaction: () => 'm',
      mode: () => 'o',
      todos: () => 'p',
      'cost.next': () => 'q',
      'budget.notice': () => 'r',
      'message.delivered': () => 's',
      'turn.end': () => 'l',
    };
    assert.equal(dispatch(handlers, everyEvent[0] as AgentEventMessage, seen), 'a');
    assert.equal(dispatch(handlers, everyEvent[2] as AgentEventMessage, seen), 'c');
    assert.deepEqual(seen, ['start hi', 'text Hel']);
  });
});
