import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Agent } from '../../../extension/core/agent/agent';
import type { TurnResult } from '../../../extension/core/agent/loop';
import type { Message } from '../../../extension/core/conversation/messages';
import { openStateDb, type StateDb } from '../../../extension/core/store';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';
import { agentOnStore } from './agent-on-store';

const roles = (ms: Message[]) => ms.map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}:${m.errorCode ?? 'ok'}` : m.role));
const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The VS Code window closing while a shell tool runs, driven through the core classes in the
 * order AgentHost.dispose() uses them: stop the turn, wait for it (at most 2 s), dispose the
 * agent, close the store. `awaitTurn: false` is the order without the wait (the 2 s ran out).
 */
describe('P3: closing the window while a tool runs leaves a session a strict provider accepts', function () {
  this.timeout(30000);
  let server: ScriptedServer;
  let ws: string;
  let dbFile: string;

  beforeEach(async () => {
    server = await startScriptedServer({ strict: true });
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-dispose-ws-')));
    dbFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-dispose-db-')), 'state.db');
  });
  afterEach(() => server.close());

  async function closeDuringShell(awaitTurn: boolean): Promise<{ id: string; turn: TurnResult | Error }> {
    const store = await openStateDb({ file: dbFile, idleMs: 0 });
    const { agent } = agentOnStore(store, server, ws);
    const session = agent.newSession();
    server.enqueue({ toolCalls: [{ id: 'call_sh', name: 'shell', arguments: '{"command":"echo running; sleep 30"}' }] });
    // The shell's own first output: the command is running when the window closes.
    const running = new Promise<void>((resolve) => agent.onEvent((e) => e.type === 'tool.output' && e.chunk.includes('running') && resolve()));
    const controller = new AbortController();
    const turn = agent.runTurn(session, 'run the long command', controller.signal).catch((e: Error) => e);
    await running;
    await hostDispose(agent, store, controller, awaitTurn ? turn : null);
    return { id: session.id, turn: await turn };
  }

  async function hostDispose(agent: Agent, store: StateDb, controller: AbortController, turn: Promise<unknown> | null): Promise<void> {
    controller.abort();
    if (turn) await Promise.race([turn, delay(2000)]);
    agent.dispose();
    await store.close();
  }

  async function resumeStrict(id: string): Promise<Message[]> {
    const store = await openStateDb({ file: dbFile, idleMs: 0 });
    const { agent } = agentOnStore(store, server, ws);
    server.enqueue({ text: 'The command was stopped; nothing else to do.' });
    const r = await agent.runTurn(agent.openSession(id)!, 'continue', new AbortController().signal);
    assert.equal(r.reason, 'done', r.error);
    assert.equal(server.rejected.length, 0, 'the strict provider accepted every request');
    const stored = store.getMessages(id);
    agent.dispose();
    await store.close();
    return stored;
  }

  it('P3: (c) dispose in the host order stores the stopped call with its (cancelled) result; the session resumes', async () => {
    const { id, turn } = await closeDuringShell(true);
    assert.equal((turn as TurnResult).reason, 'cancelled');
    const reopened = await openStateDb({ file: dbFile, idleMs: 0 });
    assert.deepEqual(roles(reopened.getMessages(id)), ['user', 'assistant', 'tool:call_sh:cancelled']);
    await reopened.close();
    assert.deepEqual(roles(await resumeStrict(id)), ['user', 'assistant', 'tool:call_sh:cancelled', 'user', 'assistant']);
  });

  it('P3: (c) dispose without waiting for the turn (the 2 s bound ran out) stores no call without its result', async () => {
    const { id, turn } = await closeDuringShell(false);
    assert.ok(turn instanceof Error && /state\.db is closed/.test(turn.message), String(turn));
    const reopened = await openStateDb({ file: dbFile, idleMs: 0 });
    assert.deepEqual(roles(reopened.getMessages(id)), ['user']);
    await reopened.close();
    assert.deepEqual(roles(await resumeStrict(id)), ['user', 'user', 'assistant']);
  });
});
