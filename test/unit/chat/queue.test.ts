/**
 * Messages sent while a turn runs (issue 30 item 3), through the chat controller on a real agent
 * and the scripted server: steering ones are read at the next round boundary, queued ones run as
 * turns of their own once the turn ends, in the order sent; Stop holds them; they can be edited,
 * switched and removed while they wait, and a reloaded window finds them again, held.
 */
import assert from 'node:assert/strict';
import { ChatController, type QueueStore } from '../../../extension/core/chat/controller';
import type { ChatHooks } from '../../../extension/core/chat/chat-agent';
import type { QueueState } from '../../../extension/core/chat/message-queue';
import type { AgentEvent } from '../../../extension/core/conversation/events';
import type { Message } from '../../../extension/core/conversation/messages';
import type { Step } from '../../fixtures/scripted-server';
import { recordingLogger } from '../../fixtures/recording-logger';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { waitUntil } from '../../fixtures/eventually';

const readA: Step = { toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }] };

/** A promise the test resolves: holds a scripted reply until the test has sent what it sends during the turn. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function memoryQueueStore(): QueueStore & { saved: Map<string, QueueState> } {
  const saved = new Map<string, QueueState>();
  return {
    saved,
    load: (id) => saved.get(id),
    save: (id, state) => void (state.items.length ? saved.set(id, structuredClone(state)) : saved.delete(id)),
  };
}

const shape = (ms: Message[]) => ms.map((m) => (m.role === 'user' ? `${m.duringTurn ? 'user*' : 'user'}:${m.content}` : m.role));

describe('chat controller: messages sent while a turn runs', function () {
  this.timeout(30000);
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  function controllerOn(harness: Harness, opts: { queueStore?: QueueStore; delivery?: 'steer' | 'queue' } = {}) {
    const log: string[] = [];
    const events: AgentEvent[] = [];
    const idle: string[] = [];
    const hooks: ChatHooks = {
      event: (e) => void events.push(e),
      error: (m) => void log.push(`error ${m}`),
      sessionStarted: async () => undefined,
      runningChanged: () => undefined,
      sessionChanged: () => undefined,
      beforeRequest: async () => undefined,
      queueChanged: () => void log.push('queue changed'),
      idle: (reason) => void idle.push(reason),
    };
    const chat = new ChatController({
      agent: async () => harness.agent,
      hooks,
      logger: recordingLogger(),
      ...(opts.queueStore ? { queueStore: opts.queueStore } : {}),
      ...(opts.delivery ? { delivery: () => opts.delivery! } : {}),
    });
    const prompts = () => events.flatMap((e) => (e.type === 'turn.start' ? [e.prompt] : []));
    return { chat, log, events, idle, prompts };
  }

  /** The scripted server answers from `replies` in order; the first waits for the returned gate. */
  function gatedScript(...replies: Step[]) {
    const g = gate();
    h.server.setResponder(async (_body, i) => {
      if (i === 0) await g.opened;
      return replies[i] ?? { text: `reply ${i}` };
    });
    return g;
  }

  it('steer (the default): read at the next round boundary, after the round\'s tool results, in the same turn; then the chat is idle once', async () => {
    h = await createHarness({ files: { 'a.txt': 'alpha\n' } });
    const { chat, log, events, idle, prompts } = controllerOn(h);
    const g = gatedScript(readA, { text: 'Using what you said.' });
    const turn = chat.send({ text: 'read a.txt' });
    await waitUntil(() => h.server.chatRequests().length === 1, 'the first request');
    await chat.send({ text: 'and mind the tabs' });
    const [waiting] = chat.queue().items;
    assert.equal(waiting.delivery, 'steer');
    assert.ok(log.includes('queue changed'));
    g.open();
    await turn;
    assert.deepEqual(prompts(), ['read a.txt'], 'one turn');
    const delivered = events.filter((e) => e.type === 'message.delivered');
    assert.deepEqual(delivered.map((e) => e.type === 'message.delivered' && [e.id, e.text]), [[waiting.id, 'and mind the tabs']]);
    assert.deepEqual(h.server.chatRequests()[1].body.messages.slice(-3).map((m: { role: string }) => m.role), ['assistant', 'tool', 'user']);
    assert.deepEqual(shape(h.store.getMessages(chat.session!.id)), ['user:read a.txt', 'assistant', 'tool', 'user*:and mind the tabs', 'assistant']);
    assert.deepEqual(chat.queue(), { items: [], held: false });
    assert.deepEqual(idle, ['done']);
  });

  it('queue: runs as a turn of its own when the turn ends, in the order sent; a steering message that missed its boundary goes first', async () => {
    h = await createHarness();
    const { chat, idle, prompts, events } = controllerOn(h, { delivery: 'queue' });
    // The first turn answers at once: there is no round boundary for the steering message.
    const g = gatedScript({ text: 'first answer' }, { text: 'steered' }, { text: 'one' }, { text: 'two' });
    const turn = chat.send({ text: 'first' });
    await waitUntil(() => h.server.chatRequests().length === 1, 'the first request');
    await chat.send({ text: 'queued one' });
    await chat.send({ text: 'steer me' }, { delivery: 'steer' });
    await chat.send({ text: 'queued two' });
    assert.deepEqual(chat.queue().items.map((m) => [m.input.text, m.delivery]), [['queued one', 'queue'], ['steer me', 'steer'], ['queued two', 'queue']]);
    g.open();
    await turn;
    assert.deepEqual(prompts(), ['first', 'steer me', 'queued one', 'queued two']);
    assert.equal(events.filter((e) => e.type === 'message.delivered').length, 0);
    assert.deepEqual(idle, ['done'], 'idle once, after the last waiting message ran');
    assert.equal(chat.queue().items.length, 0);
  });

  it('Stop holds what waits (nothing runs later by surprise); Send now runs one and the rest follow', async () => {
    h = await createHarness();
    const { chat, idle, prompts } = controllerOn(h);
    h.server.enqueue({ text: 'never', fault: { firstByteDelayMs: 60_000 } });
    const turn = chat.send({ text: 'long one' });
    await waitUntil(() => h.server.chatRequests().length === 1, 'the first request');
    await chat.send({ text: 'steer me' });
    await chat.send({ text: 'after it' }, { delivery: 'queue' });
    chat.stop();
    await turn;
    assert.deepEqual(idle, ['cancelled']);
    const held = chat.queue();
    assert.equal(held.held, true);
    assert.deepEqual(held.items.map((m) => m.input.text), ['steer me', 'after it']);
    assert.equal(h.server.chatRequests().length, 1, 'nothing more was sent');
    // A message typed now runs; the held ones still wait.
    h.server.enqueue({ text: 'typed answer' }, { text: 'after answer' }, { text: 'steer answer' });
    await chat.send({ text: 'something else' });
    assert.deepEqual(prompts(), ['long one', 'something else']);
    assert.equal(chat.queue().held, true);
    await chat.sendQueuedNow(held.items[1].id);
    assert.deepEqual(prompts(), ['long one', 'something else', 'after it', 'steer me']);
    assert.deepEqual(chat.queue(), { items: [], held: false });
  });

  it('while it waits: edited (refused when empty), switched, removed; a message no longer waiting is said, not thrown', async () => {
    h = await createHarness();
    const { chat, log, prompts } = controllerOn(h);
    const g = gatedScript({ text: 'first answer' }, { text: 'second answer' });
    const turn = chat.send({ text: 'first' });
    await waitUntil(() => h.server.chatRequests().length === 1, 'the first request');
    await chat.send({ text: 'typo here' });
    await chat.send({ text: 'drop me' });
    const [keep, drop] = chat.queue().items;
    chat.editQueued(keep.id, 'fixed text');
    chat.editQueued(keep.id, '   ');
    assert.ok(log.includes('error A message needs text or an image: remove it instead.'));
    chat.setQueuedDelivery(keep.id, 'queue');
    chat.removeQueued(drop.id);
    chat.removeQueued(drop.id);
    assert.ok(log.includes('error That message is no longer waiting: it was sent already or removed.'));
    assert.deepEqual(chat.queue().items.map((m) => [m.input.text, m.delivery]), [['fixed text', 'queue']]);
    g.open();
    await turn;
    assert.deepEqual(prompts(), ['first', 'fixed text']);
    assert.equal(JSON.stringify(h.server.chatRequests().map((r) => r.body.messages)).includes('drop me'), false);
  });

  it('a message sent while the first turn is still starting joins the session that turn makes', async () => {
    h = await createHarness({ files: { 'a.txt': 'alpha\n' } });
    const { chat } = controllerOn(h);
    h.server.enqueue(readA, { text: 'ok' });
    const turn = chat.send({ text: 'read a.txt' });
    const second = chat.send({ text: 'also this' });
    assert.equal(chat.session, undefined, 'no session yet');
    await Promise.all([turn, second]);
    assert.deepEqual(shape(h.store.getMessages(chat.session!.id)), ['user:read a.txt', 'assistant', 'tool', 'user*:also this', 'assistant']);
  });

  it('kept with the session: a new chat leaves them held with it, and a reloaded window (a new controller) finds them on Resume, held', async () => {
    h = await createHarness();
    const store = memoryQueueStore();
    const first = controllerOn(h, { queueStore: store });
    h.server.enqueue({ text: 'never', fault: { firstByteDelayMs: 60_000 } });
    const turn = first.chat.send({ text: 'long one' });
    await waitUntil(() => h.server.chatRequests().length === 1, 'the first request');
    await first.chat.send({ text: 'for later', images: [{ name: 'p.png', mime: 'image/png', dataBase64: 'iVBORw0KGgo=' }] }, { delivery: 'queue' });
    const id = first.chat.session!.id;
    await first.chat.newChat();
    await turn;
    assert.deepEqual(first.chat.queue(), { items: [], held: false }, 'the new chat has its own (empty) queue');
    assert.equal(store.saved.get(id)?.held, true);

    const second = controllerOn(h, { queueStore: store });
    await second.chat.resume(id);
    const back = second.chat.queue();
    assert.equal(back.held, true);
    assert.deepEqual(back.items.map((m) => [m.input.text, m.input.images?.[0]?.name, m.delivery]), [['for later', 'p.png', 'queue']]);
    assert.equal(h.server.chatRequests().length, 1, 'nothing ran on its own');
    await second.chat.deleteSession(id);
    assert.equal(store.saved.has(id), false, 'a deleted session\'s messages go with it');
  });
});
