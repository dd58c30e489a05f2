/**
 * Plan mode the user switches on, and the model's todo list (issue 30, item 2): which tools each
 * mode sends, what a plan-mode session may not do, todo_write's schema, its storage with the
 * session and its event, and the chat controller's toggle and "Approve plan".
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChatController, PLAN_APPROVED } from '../../../extension/core/chat/controller';
import type { ChatHooks } from '../../../extension/core/chat/chat-agent';
import type { AgentEvent } from '../../../extension/core/conversation/events';
import { openStateDb } from '../../../extension/core/store';
import type { BrowserManager } from '../../../extension/core/browser/browser-manager';
import { createBrowserTools } from '../../../extension/core/tools/browser';
import { TOOL } from '../../../extension/core/tools/names';
import { offerRefusal } from '../../../extension/core/tools/policy/decide';
import { recordingLogger } from '../../fixtures/recording-logger';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

const names = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);
const system = (body: any): string => body.messages[0].content;
const toolMessages = (body: any): any[] => body.messages.filter((m: any) => m.role === 'tool');
const todoCall = (id: string, todos: unknown) => ({ toolCalls: [{ id, name: TOOL.todo_write, arguments: JSON.stringify({ todos }) }] });

describe('plan mode and the todo list (issue 30)', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('code mode: todo_write is deferred (the Deferred line names its group); plan mode sends it eagerly and no tool that changes things', async () => {
    h = await createHarness();
    h.server.enqueue({ text: 'ok' }, { text: 'a plan' });
    await h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal);
    await h.agent.runTurn(h.agent.newSession({ mode: 'plan' }), 'plan it', new AbortController().signal);
    const [code, plan] = h.bodies();
    assert.ok(!names(code).includes(TOOL.todo_write), 'deferred in code mode');
    assert.match(system(code), /^Deferred \(load with tool_search\): .*, todo \(1\)$/m);
    assert.ok(names(plan).includes(TOOL.todo_write), 'plan mode requires it');
    for (const t of [TOOL.write_file, TOOL.edit_file, TOOL.shell, TOOL.execute_code]) assert.ok(!names(plan).includes(t), `${t} is not offered in plan mode`);
    assert.match(system(plan), /^Mode: plan\. .*todo_write.*approves the plan/m);
  });

  it('plan mode: a write is refused with mode_blocked and told how plan mode ends; nothing is written', async () => {
    h = await createHarness();
    h.server.enqueue({ toolCalls: [{ id: 'w1', name: TOOL.write_file, arguments: JSON.stringify({ path: 'a.txt', content: 'x' }) }] }, { text: 'plan: write a.txt' });
    const r = await h.agent.runTurn(h.agent.newSession({ mode: 'plan' }), 'go', new AbortController().signal);
    assert.equal(r.reason, 'done');
    const [refused] = toolMessages(h.bodies()[1]);
    assert.match(refused.content, /mode_blocked/);
    assert.match(refused.content, /write_file is not available in plan mode, which is read-only/);
    assert.match(refused.content, /answer with your plan; the user approves it to switch to act mode/);
    assert.equal(fs.existsSync(path.join(h.workspace, 'a.txt')), false);
  });

  it('plan mode: browser tools that act on a page (click, type, press) are refused; reading a page is not', () => {
    const tools = createBrowserTools({} as BrowserManager);
    const refused = tools.filter((t) => offerRefusal(t, { mode: 'plan' })).map((t) => t.name).sort();
    assert.deepEqual(refused, [TOOL.browser_click, TOOL.browser_press, TOOL.browser_type].sort(), 'a click can submit a form');
    for (const t of tools) assert.equal(offerRefusal(t, { mode: 'code' }), undefined, t.name);
  });

  it('todo_write replaces the list, answers with counts only, reports a todos event and stores the list with the session', async () => {
    h = await createHarness();
    const first = [
      { text: 'read the parser', status: 'done' },
      { text: 'fix the off-by-one', status: 'in_progress' },
      { text: 'run the tests', status: 'pending' },
    ];
    const second = [{ text: 'run the tests', status: 'done' }];
    h.server.enqueue(todoCall('t1', first), todoCall('t2', second), { text: 'done' });
    const s = h.agent.newSession({ mode: 'plan' });
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    const results = toolMessages(h.bodies()[2]).map((m) => m.content);
    assert.deepEqual(results, ['todo list saved: 1 done, 1 in progress, 1 pending', 'todo list saved: 1 done, 0 in progress, 0 pending']);
    const todoEvents = h.events.filter((e): e is Extract<AgentEvent, { type: 'todos' }> => e.type === 'todos');
    assert.deepEqual(
      todoEvents.map((e) => e.todos),
      [first, second],
    );
    assert.deepEqual(s.todos, second, 'the second call replaced the list');
    assert.deepEqual(h.store.getSession(s.id)!.todos, second);
    // A stored session opened again (another window, a resumed CLI run) has its list.
    h.agent.releaseSession(s.id);
    assert.deepEqual(h.agent.openSession(s.id)!.todos, second);
  });

  it('todo_write refuses a bad list with invalid_arguments and keeps the old one', async () => {
    h = await createHarness();
    const tooMany = Array.from({ length: 51 }, (_, i) => ({ text: `step ${i}`, status: 'pending' }));
    h.server.enqueue(todoCall('b1', [{ text: 'x', status: 'doing' }]), todoCall('b2', [{ text: '   ', status: 'pending' }]), todoCall('b3', tooMany), { text: 'ok' });
    const s = h.agent.newSession({ mode: 'plan' });
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    const results = toolMessages(h.bodies()[3]).map((m) => m.content);
    assert.equal(results.length, 3);
    for (const r of results) assert.match(r, /invalid_arguments/);
    assert.match(results[0], /status/);
    assert.deepEqual(s.todos, []);
    assert.ok(!h.events.some((e) => e.type === 'todos'));
  });

  it('a subagent keeps no todo list: todo_write is not offered to it', async () => {
    h = await createHarness();
    h.server.enqueue(
      { toolCalls: [{ id: 'd1', name: TOOL.delegate_task, arguments: JSON.stringify({ task: 'look around', agent: 'general' }) }] },
      todoCall('c1', [{ text: 'x', status: 'pending' }]),
      { text: 'child done' },
      { text: 'parent done' },
    );
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    const child = h.bodies()[1];
    assert.ok(!names(child).includes(TOOL.todo_write));
    const refused = toolMessages(h.bodies()[2]).at(-1);
    assert.match(refused.content, /policy_blocked/);
    assert.ok(!h.events.some((e) => e.type === 'todos'));
  });

  it('set_mode reports a mode event and stores the mode', async () => {
    h = await createHarness();
    h.server.enqueue({ toolCalls: [{ id: 'm1', name: TOOL.set_mode, arguments: JSON.stringify({ mode: 'plan' }) }] }, { text: 'ok' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    assert.deepEqual(
      h.events.filter((e) => e.type === 'mode'),
      [{ type: 'mode', sessionId: s.id, mode: 'plan' }],
    );
    assert.equal(h.store.getSession(s.id)!.mode, 'plan');
  });
});

describe('state.db keeps the todo list with its session (schema v4)', () => {
  it('a list written, then the database closed and opened again, reads back; a damaged list reads as empty', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-todo-db-'));
    const file = path.join(dir, 'state.db');
    let db = await openStateDb({ file, idleMs: 0 });
    const s = db.createSession({ title: 't', workspaceRoot: dir, mode: 'plan', role: 'default' });
    assert.deepEqual(s.todos, []);
    db.updateSession(s.id, { todos: [{ text: 'a', status: 'in_progress' }] });
    await db.close();
    db = await openStateDb({ file, idleMs: 0 });
    assert.deepEqual(db.getSession(s.id)!.todos, [{ text: 'a', status: 'in_progress' }]);
    assert.equal(db.getSession(s.id)!.mode, 'plan');
    db.updateSession(s.id, { todos: [{ text: 'b', status: 'bogus' as 'done' }] });
    assert.deepEqual(db.getSession(s.id)!.todos, [], 'a list that does not parse is not handed out');
    await db.close();
  });
});

describe('chat controller: the plan toggle and "Approve plan"', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  function controller(harness: Harness) {
    const log: string[] = [];
    const events: AgentEvent[] = [];
    const hooks: ChatHooks = {
      event: (e) => void events.push(e),
      error: (m) => void log.push(`error ${m}`),
      sessionStarted: async () => undefined,
      runningChanged: () => undefined,
      sessionChanged: () => void log.push('session changed'),
      beforeRequest: async () => undefined,
    };
    return { chat: new ChatController({ agent: async () => harness.agent, hooks, logger: recordingLogger() }), log, events };
  }

  it('plan picked before the first message: the new session starts in plan mode; approving switches to code and sends the approval as a turn', async () => {
    h = await createHarness();
    const { chat, log, events } = controller(h);
    await chat.setMode('plan');
    assert.equal(chat.mode, 'plan');
    assert.ok(log.includes('session changed'), 'the view hears of the mode without a session');
    h.server.enqueue({ text: '1. read\n2. change' }, { text: 'carried out' });
    await chat.send({ text: 'plan the fix' });
    const session = chat.session!;
    assert.equal(h.store.getSession(session.id)!.mode, 'plan');
    assert.ok(!names(h.bodies()[0]).includes(TOOL.write_file));
    await chat.approvePlan();
    assert.equal(session.mode, 'code');
    assert.equal(h.store.getSession(session.id)!.mode, 'code');
    const second = h.bodies()[1];
    assert.ok(names(second).includes(TOOL.write_file), 'act mode sends the writing tools again');
    assert.ok(names(second).includes(TOOL.todo_write), 'the plan\'s todo list can still be kept');
    assert.deepEqual(h.store.getSession(session.id)!.loadedTools, [TOOL.todo_write]);
    assert.equal(second.messages.at(-1).content, PLAN_APPROVED);
    const order = events.filter((e) => e.type === 'mode' || e.type === 'turn.start').map((e) => e.type);
    assert.deepEqual(order, ['turn.start', 'mode', 'turn.start'], 'the mode changed before the approval turn started');
  });

  it('approve is refused outside plan mode, and New Chat keeps the plan toggle on', async () => {
    h = await createHarness();
    const { chat, log } = controller(h);
    await chat.approvePlan();
    assert.match(log.at(-1)!, /^error There is no plan to approve/);
    h.server.enqueue({ text: 'ok' });
    await chat.send({ text: 'hi' });
    await chat.setMode('plan');
    assert.equal(chat.session!.mode, 'plan');
    await chat.newChat();
    assert.equal(chat.mode, 'plan');
  });
});
