import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Message } from '../../../extension/core/conversation/messages';
import { INTERRUPTED_TEXT } from '../../../extension/core/conversation/orphans';
import { openStateDb, type StateDb } from '../../../extension/core/store';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';
import { pairingProblem } from '../../fixtures/scripted-server-strict';
import { agentOnStore } from '../agent/agent-on-store';

const roles = (ms: Message[]) => ms.map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}` : m.role));
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args) });

describe('P3: a tool call without its result never makes a session unusable', function () {
  this.timeout(30000);
  let server: ScriptedServer;
  let ws: string;
  let dbFile: string;
  const open = () => openStateDb({ file: dbFile, idleMs: 0 });

  /** Writes a session through the store API, as an interrupted run of an earlier version left it. */
  async function storedSession(messages: Message[]): Promise<string> {
    const store = await open();
    const { id } = store.createSession({ title: 'interrupted', workspaceRoot: ws, mode: 'code', role: 'default' });
    let round = 0;
    for (const message of messages) store.appendMessage(id, { turn: 1, round: message.role === 'assistant' ? ++round : round, message });
    await store.commitRound();
    await store.close();
    return id;
  }

  beforeEach(async () => {
    server = await startScriptedServer({ strict: true });
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-orphan-ws-')));
    dbFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-orphan-db-')), 'state.db');
  });
  afterEach(() => server.close());

  it('P3: (a) a stored session ending in an orphan call resumes and completes against a strict provider; the interrupted result is stored', async () => {
    const id = await storedSession([
      { role: 'user', content: 'make f1 and ask a helper' },
      { role: 'assistant', content: '', toolCalls: [call('call_1', 'write_file', { path: 'f1.txt', content: 'x' }), call('call_2', 'delegate_task', { task: 'read f1.txt' })] },
      { role: 'tool', toolCallId: 'call_1', toolName: 'write_file', ok: true, content: 'wrote f1.txt' },
    ]);
    let store: StateDb = await open();
    const { agent } = agentOnStore(store, server, ws);
    const session = agent.openSession(id)!;
    assert.deepEqual(roles(session.messages), ['user', 'assistant', 'tool:call_1', 'tool:call_2']);
    server.enqueue({ text: 'Continuing: f1.txt exists; the helper did not finish.' });
    const r = await agent.runTurn(session, 'continue', new AbortController().signal);
    assert.equal(r.reason, 'done', r.error);
    assert.equal(server.rejected.length, 0);
    const sent = server.chatRequests()[0]!.body.messages;
    assert.equal(pairingProblem(sent), null);
    assert.deepEqual(sent.at(-2), { role: 'tool', tool_call_id: 'call_2', content: INTERRUPTED_TEXT });
    agent.dispose();
    await store.close();

    store = await open();
    const stored = store.getMessages(id);
    assert.deepEqual(roles(stored), ['user', 'assistant', 'tool:call_1', 'tool:call_2', 'user', 'assistant']);
    assert.equal((stored[3] as Extract<Message, { role: 'tool' }>).errorCode, 'interrupted');
    await store.close();
  });

  it('P3: an orphan call followed by later messages (an earlier version\'s failed "continue") is paired in every request', async () => {
    const id = await storedSession([
      { role: 'user', content: 'run it' },
      { role: 'assistant', content: '', toolCalls: [call('call_9', 'shell', { command: 'sleep 100' })] },
      { role: 'user', content: 'continue' },
    ]);
    const store = await open();
    const { agent } = agentOnStore(store, server, ws);
    server.enqueue({ text: 'Picking up again.' });
    const r = await agent.runTurn(agent.openSession(id)!, 'and again', new AbortController().signal);
    assert.equal(r.reason, 'done', r.error);
    assert.equal(server.rejected.length, 0);
    const sent = server.chatRequests()[0]!.body.messages.map((m: { role: string; tool_call_id?: string }) => m.tool_call_id ?? m.role);
    assert.deepEqual(sent, ['system', 'user', 'assistant', 'call_9', 'user', 'user']);
    agent.dispose();
    await store.close();
  });

  describe('in-process agent', () => {
    let h: Harness;
    afterEach(async () => h && (await h.close()));

    it("P3: a delegate_task child's commits never store the parent's tool call before its result", async () => {
      h = await createHarness({ server, files: { 'a.txt': 'alpha\n' } });
      let parentStoredDuringChild: string[] = [];
      let parentId = '';
      server.setResponder((_body, index) => {
        if (index === 0) return { toolCalls: [{ id: 'call_d', name: 'delegate_task', arguments: '{"task":"read a.txt","agent":"explore"}' }] };
        if (index === 1) return { toolCalls: [{ id: 'call_r', name: 'read_file', arguments: '{"path":"a.txt"}' }] };
        if (index === 2) {
          // The child's first round has been committed: what does state.db hold of the parent?
          parentStoredDuringChild = roles(h.store.getMessages(parentId));
          return { text: 'a.txt says alpha' };
        }
        return { text: 'The helper says alpha.' };
      });
      const s = h.agent.newSession();
      parentId = s.id;
      const r = await h.agent.runTurn(s, 'use a helper', new AbortController().signal);
      assert.equal(r.reason, 'done', r.error);
      assert.deepEqual(parentStoredDuringChild, ['user']);
      assert.deepEqual(roles(h.store.getMessages(s.id)), ['user', 'assistant', 'tool:call_d', 'assistant']);
      assert.equal(server.rejected.length, 0);
    });

    it('P22: every finished tool call is recorded in tool_calls (outcome, round, timing; long arguments capped) and exported', async () => {
      h = await createHarness({ server, files: { 'a.txt': 'alpha\n' } });
      const long = 'y'.repeat(5000);
      server.enqueue(
        { toolCalls: [{ id: 'c_read', name: 'read_file', arguments: '{"path":"a.txt"}' }, { id: 'c_missing', name: 'read_file', arguments: '{"path":"nope.txt"}' }] },
        { toolCalls: [{ id: 'c_write', name: 'write_file', arguments: JSON.stringify({ path: 'b.txt', content: long }) }] },
        { text: 'done' },
      );
      const s = h.agent.newSession();
      assert.equal((await h.agent.runTurn(s, 'go', new AbortController().signal)).reason, 'done');
      const recs = h.store.getToolCalls(s.id);
      assert.deepEqual(
        recs.map((c) => [c.callId, c.tool, c.ok, c.errorCode ?? null, c.round]),
        [
          ['c_read', 'read_file', true, null, 1],
          ['c_missing', 'read_file', false, 'not_found', 1],
          ['c_write', 'write_file', true, null, 2],
        ],
      );
      assert.ok(recs.every((c) => typeof c.started === 'number' && c.ended! >= c.started));
      assert.ok(recs[2]!.args.length < 2200 && /\[5\d{3} chars; the transcript holds them whole\]$/.test(recs[2]!.args));
      assert.equal(JSON.parse(h.store.exportSession(s.id, 'json')).toolCalls.length, 3);
    });
  });
});
