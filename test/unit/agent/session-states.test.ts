import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SessionStates } from '../../../extension/core/conversation/session-states';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

const isChild = (body: any) => /You have \d+ tool rounds for this task\./.test(body.messages[0].content);
const root = path.resolve(__dirname, '../../..');

describe('SessionStates: one owner of what the agent keeps per session', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a slice is a map keyed by session id; release and a scope empty every slice for that session only', () => {
    const states = new SessionStates();
    const a = states.slice<number>('a');
    const b = states.slice<string>('b');
    a.set('s1', 1);
    b.set('s1', 'x');
    a.set('s2', 2);
    assert.deepEqual(states.holding('s1'), ['a', 'b']);
    states.release('s1');
    assert.deepEqual(states.holding('s1'), []);
    assert.deepEqual(states.holding('s2'), ['a'], 'another session keeps its state');
    states.scope('s2').dispose();
    assert.deepEqual(states.holding('s2'), []);
    assert.deepEqual(states.names(), ['a', 'b']);
  });

  it('onRelease hears each released session after every slice dropped it; a throwing listener is reported and the release goes on; a disposed listener hears nothing', () => {
    const errors: unknown[] = [];
    const states = new SessionStates({ onListenerError: (e) => errors.push(e) });
    const a = states.slice<number>('a');
    a.set('s1', 1);
    a.set('s2', 2);
    const heard: Array<[string, string[]]> = [];
    states.onRelease(() => {
      throw new Error('listener broke');
    });
    const sub = states.onRelease((id) => heard.push([id, states.holding(id)]));
    states.release('s1');
    assert.deepEqual(heard, [['s1', []]], 'told after the slices were emptied');
    assert.equal((errors[0] as Error).message, 'listener broke');
    states.scope('s2').dispose();
    assert.deepEqual(heard, [['s1', []], ['s2', []]], 'a scope releases through the same path');
    sub.dispose();
    states.release('s3');
    assert.equal(heard.length, 2);
  });

  it('every release reaches onSessionReleased (where the host and the CLI close the browser page): a finished subagent, a session the chat left, a deleted session', async () => {
    const closed: string[] = [];
    h = await createHarness({ onSessionReleased: (id) => closed.push(id) });
    h.server.setResponder((body) => {
      if (isChild(body)) return { text: 'child done' };
      const results = body.messages.filter((m: any) => m.role === 'tool').length;
      if (results === 0) return { toolCalls: [{ name: 'delegate_task', arguments: JSON.stringify({ task: 'Say done.', agent: 'general', max_rounds: 2 }) }] };
      return { text: 'done' };
    });
    const s = h.agent.newSession();
    assert.equal((await h.agent.runTurn(s, 'delegate', new AbortController().signal)).reason, 'done');
    const [child] = h.store.childSessions(s.id);
    assert.ok(child, 'the subagent ran');
    assert.deepEqual(closed, [child.id], 'the subagent was released when it finished; the parent was not');
    h.agent.releaseSession(s.id);
    assert.deepEqual(closed, [child.id, s.id], 'the session the chat left');
    closed.length = 0;
    assert.equal(await h.agent.deleteSession(s.id), true);
    assert.deepEqual([...closed].sort(), [s.id, child.id].sort(), 'a deleted session and its children');
  });

  it("after a turn with reads and a subagent, releasing the session leaves nothing of it in any part; the child's state went when it finished", async () => {
    h = await createHarness({ files: { 'AGENTS.md': 'Be brief.\n', 'src/a.ts': 'export const a = 1;\n' }, settings: { 'model.inputPrice': 1, 'model.outputPrice': 2 } });
    h.server.setResponder((body) => {
      const results = body.messages.filter((m: any) => m.role === 'tool').length;
      if (isChild(body)) return results === 0 ? { toolCalls: [{ name: 'read_file', arguments: '{"path":"src/a.ts"}' }] } : { text: 'a is 1' };
      if (results === 0) return { toolCalls: [{ name: 'read_file', arguments: '{"path":"src/a.ts"}' }] };
      if (results === 1) return { toolCalls: [{ name: 'delegate_task', arguments: JSON.stringify({ task: 'What is a?', agent: 'explore', max_rounds: 3 }) }] };
      return { text: 'done' };
    });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'look at a', new AbortController().signal);
    assert.equal(r.reason, 'done');
    const [child] = h.store.childSessions(s.id);
    assert.ok(child, 'the subagent ran');
    assert.deepEqual(h.agent.heldFor(child.id), [], 'a finished subagent keeps nothing in memory');

    const held = h.agent.heldFor(s.id);
    for (const part of ['live sessions', 'repeat guard', 'system prompt', 'tool block', 'active tools', 'token ratios', 'instruction files', 'session costs', 'forecast last request']) {
      assert.ok(held.includes(part), `the live session has state in "${part}" (held: ${held.join(', ')})`);
    }
    h.agent.releaseSession(s.id);
    assert.deepEqual(h.agent.heldFor(s.id), [], 'released: nothing of the session is left in any part');

    // state.db keeps it: the session opens again and a turn runs on it.
    h.server.setResponder(() => ({ text: 'again' }));
    const reopened = h.agent.openSession(s.id)!;
    assert.notEqual(reopened, s, 'read back from state.db, not the released object');
    assert.equal((await h.agent.runTurn(reopened, 'and now?', new AbortController().signal)).text, 'again');
  });

  it("the agent's parts keep no per-session Map of their own (each takes a slice from SessionStates)", () => {
    const parts = [
      'extension/core/agent',
      'extension/core/context',
      'extension/core/tools/repeat-guard.ts',
      'extension/core/tools/runtime.ts',
      'extension/core/model/session-costs.ts',
    ];
    const files = parts.flatMap((p) => {
      const abs = path.join(root, p);
      return fs.statSync(abs).isDirectory() ? fs.readdirSync(abs, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(abs, f)) : [abs];
    });
    // A field `= new Map<string, ...>()` in a class: what a per-session cache looked like before.
    const fields = files.flatMap((f) =>
      fs
        .readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => /^\s+(private |protected |public )?readonly \w+ = new Map<string,/.test(l))
        .map((l) => `${path.relative(root, f)}: ${l.trim()}`),
    );
    // The runtime's schema cache is keyed by tool name, not by session.
    assert.deepEqual(
      fields.filter((l) => !l.includes('schemaCache')),
      [],
    );
  });
});
