import assert from 'node:assert/strict';
import { ChatController, CompactRefused } from '../../../extension/core/chat/controller';
import type { ChatAgent, ChatHooks } from '../../../extension/core/chat/chat-agent';
import { Emitter } from '../../../extension/core/conversation/emitter';
import type { AgentEvent } from '../../../extension/core/conversation/events';
import { Session } from '../../../extension/core/conversation/session';
import type { Message } from '../../../extension/core/conversation/messages';
import { recordingLogger } from '../../fixtures/recording-logger';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { waitUntil } from '../../fixtures/eventually';

/** What the controller reported, in order, as one line each. */
function recordingHooks() {
  const log: string[] = [];
  const events: AgentEvent[] = [];
  const hooks: ChatHooks = {
    event: (e) => {
      events.push(e);
      log.push(`event ${e.type}${e.type === 'turn.end' ? ` ${e.reason}` : ''}`);
    },
    error: (m) => void log.push(`error ${m}`),
    sessionStarted: async () => void log.push('session started'),
    runningChanged: (on) => void log.push(`running ${on}`),
    sessionChanged: () => void log.push('session changed'),
    beforeRequest: async () => void log.push('before request'),
  };
  return { hooks, log, events };
}

const roles = (ms: Message[]) => ms.map((m) => (m.role === 'tool' ? `tool:${m.errorCode ?? 'ok'}` : m.role));
const sleepCall = (id: string) => ({ toolCalls: [{ id, name: 'shell', arguments: '{"command":"sleep 30"}' }] });

describe('chat controller: one chat\'s sessions and turns, without VS Code', function () {
  this.timeout(30000);
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  function controllerOn(harness: Harness, opts: { stopWaitMs?: number } = {}) {
    const rec = recordingHooks();
    const chat = new ChatController({ agent: async () => harness.agent, hooks: rec.hooks, logger: recordingLogger(), ...opts });
    return { chat, ...rec };
  }

  it('send: a first send makes a session and tells the view before any of its events; the turn runs, titled from what the user typed', async () => {
    h = await createHarness();
    const { chat, log, events } = controllerOn(h);
    h.server.enqueue({ text: 'Hello there.' });
    await chat.send({ text: '  hi,\n  who are you?' });
    assert.ok(chat.session, 'a session is current');
    assert.equal(chat.session.title, 'hi, who are you?');
    assert.equal(h.store.getSession(chat.session.id)?.title, 'hi, who are you?');
    assert.deepEqual(log.slice(0, 4), ['running true', 'session started', 'session changed', 'before request']);
    assert.equal(log.indexOf('session started') < log.indexOf('event turn.start'), true);
    assert.deepEqual(log.slice(-2), ['event turn.end done', 'running false']);
    assert.ok(events.every((e) => e.sessionId === chat.session!.id));
    assert.equal(chat.isRunning(), false);
    assert.deepEqual(roles(h.store.getMessages(chat.session.id)), ['user', 'assistant']);
  });

  it('send: the meter of each round reaches the view after its usage', async () => {
    h = await createHarness();
    const { chat, events } = controllerOn(h);
    h.server.enqueue({ text: 'ok', usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 1024 } });
    await chat.send({ text: 'hi' });
    const types = events.map((e) => e.type);
    assert.ok(types.indexOf('meter') === types.indexOf('usage') + 1, types.join(' '));
    const meter = events.find((e) => e.type === 'meter');
    assert.ok(meter?.type === 'meter');
    assert.equal(meter.promptTokens, 1200);
    assert.equal(meter.cachedTokens, 1024);
    assert.equal(meter.round, 1);
  });

  it('stop mid-turn: the running tool is cancelled, the turn ends, and the next send runs', async () => {
    h = await createHarness();
    const { chat, log } = controllerOn(h);
    h.server.enqueue(sleepCall('call_sleep'));
    const turn = chat.send({ text: 'run the long command' });
    await waitUntil(() => log.includes('event tool.call'), 'the shell call');
    assert.equal(chat.isRunning(), true);
    assert.match(chat.busyReason() ?? '', /A turn is running/);
    chat.stop();
    await turn;
    assert.equal(chat.isRunning(), false);
    assert.ok(log.includes('event turn.end cancelled'));
    assert.deepEqual(roles(h.store.getMessages(chat.session!.id)), ['user', 'assistant', 'tool:cancelled']);
    h.server.enqueue({ text: 'Stopped; fine.' });
    await chat.send({ text: 'never mind' });
    assert.deepEqual(log.slice(-2), ['event turn.end done', 'running false']);
  });

  it('new chat during a turn stops it and waits for its end (its round stored) before the new chat starts idle', async () => {
    h = await createHarness();
    const { chat, log } = controllerOn(h);
    h.server.enqueue(sleepCall('call_sleep'));
    const turn = chat.send({ text: 'run the long command' });
    await waitUntil(() => log.includes('event tool.call'), 'the shell call');
    const old = chat.session!;
    await chat.newChat();
    // By the time newChat resolves, the stopped turn has ended and its session was released.
    assert.equal(chat.isRunning(), false);
    assert.equal(chat.session, undefined);
    assert.ok(log.indexOf('event turn.end cancelled') >= 0, 'the old chat heard its turn end');
    assert.ok(h.released.includes(old.id), 'released through the agent (its onSessionReleased closes the browser page)');
    assert.deepEqual(roles(h.store.getMessages(old.id)), ['user', 'assistant', 'tool:cancelled']);
    await turn;
    h.server.enqueue({ text: 'fresh' });
    await chat.send({ text: 'a new topic' });
    const fresh: Session | undefined = chat.session as Session | undefined; // (narrowed to undefined above)
    assert.notEqual(fresh?.id, old.id);
    assert.equal(fresh?.title, 'a new topic');
  });

  it('retry sends the last prompt again, as a new turn', async () => {
    h = await createHarness({ maxRetries: 0 });
    const { chat, log, events } = controllerOn(h);
    h.server.enqueue({ fault: { status: 500, message: 'upstream exploded' } });
    await chat.send({ text: 'summarize the README' });
    assert.ok(log.some((l) => l.startsWith('event turn.end error')));
    h.server.enqueue({ text: 'Here is the summary.' });
    await chat.retry();
    const starts = events.filter((e) => e.type === 'turn.start').map((e) => (e.type === 'turn.start' ? e.prompt : ''));
    assert.deepEqual(starts, ['summarize the README', 'summarize the README']);
    assert.deepEqual(log.slice(-2), ['event turn.end done', 'running false']);
  });

  it('a second send while a turn runs waits instead of running, and leaves the last prompt alone: Stop holds it, Retry repeats the running turn\'s prompt', async () => {
    h = await createHarness();
    const { chat, log, events } = controllerOn(h);
    h.server.enqueue(sleepCall('call_sleep'));
    const turn = chat.send({ text: 'first prompt' });
    await waitUntil(() => log.includes('event tool.call'), 'the shell call');
    await chat.send({ text: 'second prompt' });
    assert.deepEqual(chat.queue().items.map((m) => m.input.text), ['second prompt']);
    assert.ok(!log.some((l) => l.startsWith('error')), 'nothing was refused');
    chat.stop();
    await turn;
    assert.equal(chat.queue().held, true, 'a stopped turn holds what waits');
    h.server.enqueue({ text: 'again' });
    await chat.retry();
    const starts = events.filter((e) => e.type === 'turn.start').map((e) => (e.type === 'turn.start' ? e.prompt : ''));
    assert.deepEqual(starts, ['first prompt', 'first prompt']);
    assert.equal(
      h.bodies().some((b) => JSON.stringify(b.messages).includes('second prompt')),
      false,
      'the held prompt was never sent',
    );
    assert.deepEqual(chat.queue().items.map((m) => m.input.text), ['second prompt'], 'it still waits, held');
  });

  it('resume: a stored session becomes current with its whole transcript, a new controller over the same state.db included', async () => {
    h = await createHarness();
    const first = controllerOn(h);
    h.server.enqueue({ text: 'one' }, { text: 'two' });
    await first.chat.send({ text: 'first question' });
    await first.chat.send({ text: 'second question' });
    const id = first.chat.session!.id;
    await first.chat.newChat();
    assert.ok(h.released.includes(id), 'released through the agent (its onSessionReleased closes the browser page)');

    const second = controllerOn(h);
    const session = await second.chat.resume(id);
    assert.equal(second.chat.session, session);
    assert.deepEqual(roles(session.messages), ['user', 'assistant', 'user', 'assistant']);
    assert.equal(session.title, 'first question');
    assert.equal(second.chat.inFlightText(), '');
    assert.ok(second.log.includes('session changed'));
    h.server.enqueue({ text: 'three' });
    await second.chat.send({ text: 'third question' });
    assert.equal(second.chat.session?.id, id, 'the turn continued the resumed session');
    assert.deepEqual(roles(h.store.getMessages(id)), ['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    await assert.rejects(second.chat.resume('no-such-session'), /no stored session no-such-session/);
  });

  it('delete: the current session is stopped, deleted and replaced by a new chat; another one is only deleted', async () => {
    h = await createHarness();
    const { chat } = controllerOn(h);
    h.server.enqueue({ text: 'a' }, { text: 'b' });
    await chat.send({ text: 'keep me' });
    const kept = chat.session!.id;
    await chat.newChat();
    await chat.send({ text: 'delete me' });
    const current = chat.session!.id;
    assert.deepEqual(await chat.deleteSession(kept), { deleted: true, wasCurrent: false });
    assert.equal(chat.session?.id, current);
    assert.deepEqual(await chat.deleteSession(current), { deleted: true, wasCurrent: true });
    assert.equal(chat.session, undefined);
    assert.equal(h.store.getSession(current), null);
  });

  it('compact: aborting its controller while the summary is written cancels it (ModelError cancelled), after a stopped turn too; nothing is stored', async () => {
    h = await createHarness();
    const { chat, log } = controllerOn(h);
    h.server.enqueue({ text: 'The API has two endpoints.' }, { text: 'Login goes through /session.' }, { text: 'not reached', fault: { firstByteDelayMs: 60_000 } });
    await chat.send({ text: 'describe the API' });
    await chat.send({ text: 'how does login work?' });
    const third = chat.send({ text: 'where are the tests?' });
    await waitUntil(() => h.server.requests.filter((r) => r.path.endsWith('/chat/completions')).length === 3, 'the third request');
    chat.stop();
    await third;
    const stored = h.store.getMessages(chat.session!.id).length;
    h.server.enqueue({ text: 'never shown', fault: { firstByteDelayMs: 30_000 } });
    const controller = new AbortController();
    const compaction = chat.compact(undefined, controller);
    await waitUntil(() => h.server.requests.filter((r) => r.path.endsWith('/chat/completions')).length === 4, 'the summary request');
    controller.abort();
    await assert.rejects(compaction, (e: Error & { kind?: string }) => e.kind === 'cancelled');
    assert.ok(!log.includes('event compaction'), 'no compaction was reported');
    assert.equal(h.store.getMessages(chat.session!.id).length, stored, 'nothing was stored');
  });

  it('compact is refused without a conversation and while a turn runs; a send during a compaction waits for it', async () => {
    h = await createHarness();
    const { chat, log } = controllerOn(h);
    await assert.rejects(chat.compact(undefined, new AbortController()), (e: Error) => e instanceof CompactRefused && /no conversation/.test(e.message));
    h.server.enqueue(sleepCall('call_sleep'));
    const turn = chat.send({ text: 'run the long command' });
    await waitUntil(() => log.includes('event tool.call'), 'the shell call');
    await assert.rejects(chat.compact(undefined, new AbortController()), (e: Error) => e instanceof CompactRefused && /A turn is running/.test(e.message));
    chat.stop();
    await turn;

    h.server.enqueue({ text: '## Task\nthe long command', fault: { firstByteDelayMs: 300 } }, { text: 'after the summary' });
    const compaction = chat.compact('the command', new AbortController());
    assert.match(chat.busyReason() ?? '', /being compacted/);
    const sent = chat.send({ text: 'and now?' });
    const outcome = await compaction;
    assert.ok(outcome, 'the conversation was compacted');
    await sent;
    const order = log.filter((l) => l === 'event compaction' || l === 'event turn.start');
    assert.deepEqual(order, ['event turn.start', 'event compaction', 'event turn.start'], 'the second turn started after the compaction');
  });
});

describe("chat controller: the model picked in the composer", function () {
  this.timeout(30000);
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  it("before a session it is the next one's; the first send stores it with the new session; New Chat keeps it; Resume brings back the session's own", async () => {
    h = await createHarness();
    const rec = recordingHooks();
    const chat = new ChatController({ agent: async () => h.agent, hooks: rec.hooks, logger: recordingLogger() });
    assert.deepEqual(chat.modelChoice, {}, 'nothing picked: the settings apply');
    await chat.setModelChoice({ model: 'o4-mini', effort: 'high' });
    assert.deepEqual(chat.modelChoice, { model: 'o4-mini', effort: 'high' });
    assert.deepEqual(rec.log, ['session changed'], 'the host hears of it (its header follows)');
    h.server.enqueue({ text: 'ok' });
    await chat.send({ text: 'think hard' });
    const first = chat.session!.id;
    assert.deepEqual(h.store.getSession(first)?.modelChoice, { model: 'o4-mini', effort: 'high' }, 'stored with the session');

    await chat.setModelChoice({ model: 'gpt-5' });
    assert.deepEqual(h.store.getSession(first)?.modelChoice, { model: 'gpt-5' }, 'a pick in a session is stored at once');

    await chat.newChat();
    assert.deepEqual(chat.modelChoice, { model: 'gpt-5' }, 'a new chat starts with the last pick');
    await chat.setModelChoice({});
    h.server.enqueue({ text: 'ok' });
    await chat.send({ text: 'plain' });
    assert.deepEqual(h.store.getSession(chat.session!.id)?.modelChoice, {});

    const other = new ChatController({ agent: async () => h.agent, hooks: recordingHooks().hooks, logger: recordingLogger() });
    await other.resume(first);
    assert.deepEqual(other.modelChoice, { model: 'gpt-5' }, "a resumed session has its own pick, from state.db");
  });
});

describe('chat controller: a turn that does not end when stopped', () => {
  /** An agent whose turns end only when the test lets them, whatever the signal says. */
  function stubbornAgent() {
    const emitter = new Emitter<AgentEvent>();
    const finish: Array<() => void> = [];
    const released: string[] = [];
    const agent: ChatAgent = {
      newSession: () => new Session({ workspaceRoot: '/ws' }),
      setMode: (session, mode) => void (session.mode = mode),
      setModelChoice: (session, choice) => void (session.modelChoice = choice),
      setAgent: () => false,
      agents: () => [],
      openSession: () => undefined,
      send: (session) =>
        new Promise((resolve) => {
          emitter.fire({ type: 'turn.start', sessionId: session.id, turn: 1, prompt: 'x' });
          finish.push(() => resolve({ reason: 'cancelled' }));
        }),
      compact: async () => undefined,
      deleteSession: async () => false,
      releaseSession: (id) => void released.push(id),
      onEvent: emitter.event,
    };
    return { agent, finish, released };
  }

  it('new chat waits stopWaitMs, then goes on without it: the next send is not refused, and the late end changes nothing', async () => {
    const { agent, finish, released } = stubbornAgent();
    const { hooks, log } = recordingHooks();
    const logger = recordingLogger();
    const chat = new ChatController({ agent: async () => agent, hooks, logger, stopWaitMs: 50 });
    const first = chat.send({ text: 'hangs' });
    await waitUntil(() => finish.length === 1, 'the first turn');
    const old = chat.session!;
    await chat.newChat();
    assert.equal(chat.isRunning(), false, 'detached');
    assert.ok(logger.lines.some((l) => /did not end within 50 ms/.test(l)), logger.lines.join('\n'));
    assert.deepEqual(released, [old.id], 'the chat left it: its session is released, its turn finishes unseen');
    const second = chat.send({ text: 'next' });
    await waitUntil(() => finish.length === 2, 'the second turn');
    assert.equal(log.filter((l) => l.startsWith('error')).length, 0, 'not refused');
    finish[0]();
    await first;
    assert.equal(chat.isRunning(), true, 'the late end of the detached turn leaves the running turn alone');
    assert.notEqual(chat.session, old);
    finish[1]();
    await second;
    assert.equal(chat.isRunning(), false);
  });
});

describe('chat controller: the custom agent picked with /agent', function () {
  this.timeout(30000);
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  it("an unknown name is said and changes nothing; before a session it is the next one's (any case, stored by its own name); New Chat keeps it; null goes back to Snowpea", async () => {
    h = await createHarness({ files: { '.claude/agents/tester.md': '---\nname: tester\ndescription: Runs the tests\ntools: Read, Grep\n---\nTESTER-BODY\n' } });
    const rec = recordingHooks();
    const chat = new ChatController({ agent: async () => h.agent, hooks: rec.hooks, logger: recordingLogger() });
    await chat.setAgent('nobody');
    assert.equal(chat.agentName, undefined);
    assert.match(rec.log.at(-1)!, /^error There is no custom agent named "nobody"/);

    await chat.setAgent('TESTER');
    assert.equal(chat.agentName, 'tester');
    h.server.enqueue({ text: 'ok' });
    await chat.send({ text: 'run them' });
    const first = chat.session!.id;
    assert.equal(h.store.getSession(first)?.role, 'tester', 'stored with the session');
    assert.match(h.bodies()[0].messages[0].content, /You run as the tester agent\. Its instructions:\nTESTER-BODY/);

    await chat.newChat();
    assert.equal(chat.agentName, 'tester', 'a new chat keeps the agent');
    await chat.setAgent(null);
    assert.equal(chat.agentName, undefined);
    h.server.enqueue({ text: 'ok' });
    await chat.send({ text: 'plain' });
    assert.equal(h.store.getSession(chat.session!.id)?.role, 'default');
    assert.doesNotMatch(h.bodies()[1].messages[0].content, /You run as the tester agent/);

    const other = new ChatController({ agent: async () => h.agent, hooks: recordingHooks().hooks, logger: recordingLogger() });
    await other.resume(first);
    assert.equal(other.agentName, 'tester', 'a resumed session runs as its agent again');
  });
});
