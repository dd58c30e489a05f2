/**
 * Messages sent while a turn runs (issue 30 item 3), at the loop: delivered at a round boundary,
 * appended after that round's tool results, in the order sent, so each request is the previous one
 * with the round and the message added at its end (the provider's prompt cache still hits).
 */
import assert from 'node:assert/strict';
import type { ComposeInput } from '../../../extension/core/input/compose';
import type { Message } from '../../../extension/core/conversation/messages';
import { Session } from '../../../extension/core/conversation/session';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

const FILES = { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' };
const readA = { toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }] };
const readB = { toolCalls: [{ id: 'call_b', name: 'read_file', arguments: '{"path":"b.txt"}' }] };

/** A duringTurn hook that hands out one batch per round boundary (then nothing), and counts the boundaries. */
function batches(...perBoundary: string[][]) {
  let boundary = 0;
  const take = (): Array<{ id: string; input: ComposeInput }> => (perBoundary[boundary++] ?? []).map((text, i) => ({ id: `q${boundary}.${i}`, input: { text } }));
  return { take, boundaries: () => boundary };
}

const shape = (ms: Message[]) => ms.map((m) => (m.role === 'user' && m.duringTurn ? `user*:${m.content}` : m.role));

describe('agent loop: messages sent during a turn, at round boundaries', function () {
  this.timeout(30000);
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0)) await h.close();
  });
  async function harness(): Promise<Harness> {
    const h = await createHarness({ files: FILES });
    harnesses.push(h);
    return h;
  }

  it('appends the message after the round\'s tool results: the request before it is the previous request byte for byte', async () => {
    const h = await harness();
    h.server.enqueue(readA, { text: 'Using b.txt then.' });
    const s = h.agent.newSession();
    const during = batches(['use b.txt instead']);
    const r = await h.agent.send(s, { text: 'read a.txt' }, new AbortController().signal, { duringTurn: during.take });
    assert.equal(r.reason, 'done');
    const [first, second] = h.server.chatRequests();
    const before = first.body.messages;
    const after = second.body.messages;
    // Everything the first request sent is the second's prefix, byte for byte: the system prompt, the prompt, the tools.
    const lastOfFirst = JSON.stringify(before.at(-1));
    const prefix = first.raw.slice(0, first.raw.indexOf(lastOfFirst) + lastOfFirst.length);
    assert.ok(second.raw.startsWith(prefix), 'the second request starts with every byte of the first up to its last message');
    assert.equal(JSON.stringify(second.body.tools), JSON.stringify(first.body.tools));
    // Then the round (the call and its result), then the message, last.
    assert.deepEqual(after.slice(0, before.length), before);
    assert.deepEqual(after.slice(before.length).map((m: { role: string }) => m.role), ['assistant', 'tool', 'user']);
    assert.deepEqual(after.at(-1), { role: 'user', content: 'use b.txt instead' });
    // The same turn without the message (in another workspace: only the system prompt's folder differs) sends the same messages up to where the message goes.
    const control = await harness();
    control.server.enqueue(readA, { text: 'ok' });
    await control.agent.send(control.agent.newSession(), { text: 'read a.txt' }, new AbortController().signal);
    assert.deepEqual(after.slice(1, -1), control.server.chatRequests()[1].body.messages.slice(1));
    // Told, and stored as the user's words within the turn: no new turn, no turn number.
    const delivered = h.events.filter((e) => e.type === 'message.delivered');
    assert.deepEqual(delivered, [{ type: 'message.delivered', sessionId: s.id, id: 'q1.0', text: 'use b.txt instead' }]);
    assert.deepEqual(shape(h.store.getMessages(s.id)), ['user', 'assistant', 'tool', 'user*:use b.txt instead', 'assistant']);
    assert.equal(s.turn, 1);
    assert.equal(h.events.filter((e) => e.type === 'turn.start').length, 1);
  });

  it('delivers in the order sent: several at one boundary together, a later one at the next boundary; the stored session counts one turn', async () => {
    const h = await harness();
    h.server.enqueue(readA, readB, { text: 'done' });
    const s = h.agent.newSession();
    const during = batches(['first', 'second'], ['third']);
    await h.agent.send(s, { text: 'go' }, new AbortController().signal, { duringTurn: during.take });
    assert.equal(during.boundaries(), 2, 'asked once per round boundary, never before the first request');
    assert.deepEqual(shape(h.store.getMessages(s.id)), ['user', 'assistant', 'tool', 'user*:first', 'user*:second', 'assistant', 'tool', 'user*:third', 'assistant']);
    const requests = h.server.chatRequests().map((r) => r.body.messages as Array<{ role: string; content: unknown }>);
    assert.deepEqual(requests[1].slice(-2), [{ role: 'user', content: 'first' }, { role: 'user', content: 'second' }]);
    assert.deepEqual(requests[2].slice(0, requests[1].length), requests[1], 'the third request extends the second');
    assert.deepEqual(requests[2].at(-1), { role: 'user', content: 'third' });
    assert.deepEqual(h.events.filter((e) => e.type === 'message.delivered').map((e) => (e as { text: string }).text), ['first', 'second', 'third']);
    // As stored: one turn (the messages sent during it are not turns of their own), so checkpoints and Restore keep their numbers.
    assert.equal(new Session({ workspaceRoot: h.workspace, messages: h.store.getMessages(s.id) }).turn, 1);
  });

  it('a boundary with nothing waiting changes nothing, and the turn\'s last round is followed by no boundary', async () => {
    const h = await harness();
    h.server.enqueue(readA, { text: 'done' });
    const s = h.agent.newSession();
    const during = batches([], []);
    await h.agent.send(s, { text: 'go' }, new AbortController().signal, { duringTurn: during.take });
    assert.equal(during.boundaries(), 1, 'a turn of two rounds has one boundary: the last round is never followed by one');
    assert.deepEqual(shape(h.store.getMessages(s.id)), ['user', 'assistant', 'tool', 'assistant']);
    assert.equal(h.events.filter((e) => e.type === 'message.delivered').length, 0);
  });
});
