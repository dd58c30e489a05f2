import assert from 'node:assert/strict';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

const SKILL = '---\nname: release\ndescription: How to cut a release\n---\nStep 1: bump.\n';
const isChild = (body: any) => /You have \d+ tool rounds for this task\./.test(body.messages[0].content);
const toolNames = (body: any) => (body.tools ?? []).map((t: any) => t.function.name);
const delegate = (args: Record<string, unknown>, id?: string) => ({ ...(id ? { id } : {}), name: 'delegate_task', arguments: JSON.stringify(args) });

describe('delegate_task and child context', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  it('runs a lean read-only child: budget line, no skills index, narrowed tools, answer + summary returned', async () => {
    h = await createHarness({ files: { '.snowpea/skills/release/SKILL.md': SKILL, 'src/a.ts': 'export const a = 1;\n' } });
    h.server.setResponder((body) => {
      if (isChild(body)) {
        const tools = body.messages.filter((m: any) => m.role === 'tool').length;
        return tools === 0 ? { toolCalls: [{ name: 'grep', arguments: '{"pattern":"export"}' }] } : { text: 'a is defined in src/a.ts:1' };
      }
      const toolMsgs = body.messages.filter((m: any) => m.role === 'tool');
      return toolMsgs.length === 0 ? { toolCalls: [delegate({ task: 'Find where a is defined.', agent: 'explore', max_rounds: 5 })] } : { text: 'It is in src/a.ts.' };
    });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'where is a?', new AbortController().signal);
    assert.equal(r.reason, 'done');
    const bodies = h.bodies();
    const parentFirst = bodies[0];
    const childFirst = bodies.find(isChild);
    assert.match(parentFirst.messages[0].content, /- release: How to cut a release/, 'the parent has the skills index');
    assert.doesNotMatch(childFirst.messages[0].content, /release/, 'a lean child has no skills index');
    assert.match(childFirst.messages[0].content, /You have 5 tool rounds for this task\./);
    assert.match(childFirst.messages[0].content, /read-only explorer/, 'the role instructions are kept');
    assert.deepEqual(childFirst.messages.slice(1), [{ role: 'user', content: 'Find where a is defined.' }], 'empty history, the task as the only user message');
    assert.deepEqual(toolNames(childFirst).sort(), ['glob', 'grep', 'read_file', 'shell', 'tool_search']);
    const result = bodies.at(-1).messages.find((m: any) => m.role === 'tool').content;
    assert.equal(result, 'a is defined in src/a.ts:1\n[subagent explore: 2 rounds; grep×1]');
    const children = h.store.childSessions(s.id);
    assert.equal(children.length, 1);
    assert.equal(children[0].role, 'explore');
    assert.deepEqual(h.store.getMessages(children[0].id).map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
  });

  it('agents.childContext "full" gives the child the parent context (skills index) and all tools for general', async () => {
    h = await createHarness({ files: { '.snowpea/skills/release/SKILL.md': SKILL }, settings: { 'agents.childContext': 'full' } });
    h.server.setResponder((body) => (isChild(body) ? { text: 'done' } : body.messages.some((m: any) => m.role === 'tool') ? { text: 'ok' } : { toolCalls: [delegate({ task: 'Do it.' })] }));
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const child = h.bodies().find(isChild);
    assert.match(child.messages[0].content, /- release: How to cut a release/);
    assert.ok(toolNames(child).includes('write_file'));
    assert.ok(!toolNames(child).includes('delegate_task') && !toolNames(child).includes('ask_user'), 'children never get delegate_task or ask_user');
  });

  it('children are refused delegate_task and ask_user; read-only children are refused writes', async () => {
    h = await createHarness();
    let childRound = 0;
    h.server.setResponder((body) => {
      if (isChild(body)) {
        childRound++;
        if (childRound === 1) return { toolCalls: [delegate({ task: 'nested' }), { name: 'ask_user', arguments: '{"question":"?"}' }, { name: 'write_file', arguments: '{"path":"x.txt","content":"x"}' }] };
        return { text: 'gave up' };
      }
      return body.messages.some((m: any) => m.role === 'tool') ? { text: 'ok' } : { toolCalls: [delegate({ task: 'try things', agent: 'reviewer' })] };
    });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const childSecond = h.bodies().filter(isChild)[1];
    const results = childSecond.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    assert.match(results[0], /policy_blocked.*delegate_task is not available to a subagent/);
    assert.match(results[1], /policy_blocked.*ask_user is not available to a subagent/);
    assert.match(results[2], /policy_blocked.*write_file is not available to the read-only reviewer agent/);
    assert.equal(h.bodies().filter(isChild).length, 2, 'no grandchild was started');
  });

  it('cancelling the parent stops the child', async () => {
    h = await createHarness();
    const c = new AbortController();
    h.server.setResponder((body) => {
      if (isChild(body)) {
        setTimeout(() => c.abort(), 100);
        return { toolCalls: [{ name: 'shell', arguments: '{"command":"sleep 30"}' }] };
      }
      return { toolCalls: [delegate({ task: 'long job' })] };
    });
    const r = await h.agent.runTurn(h.agent.newSession(), 'go', c.signal);
    assert.equal(r.reason, 'cancelled');
    const childTurnEnd = h.events.find((e) => e.type === 'turn.end' && e.sessionId !== (h.events[0] as any).sessionId) as any;
    assert.equal(childTurnEnd.reason, 'cancelled');
  });

  it('sibling children share their prompt prefix byte for byte; only the task differs', async () => {
    h = await createHarness();
    h.server.setResponder((body) => {
      if (isChild(body)) return { text: `done: ${body.messages[1].content}` };
      return body.messages.some((m: any) => m.role === 'tool')
        ? { text: 'ok' }
        : { toolCalls: [delegate({ task: 'Check module A.', agent: 'explore' }, 'd1'), delegate({ task: 'Check module B.', agent: 'explore' }, 'd2')] };
    });
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const raws = h.server.requests.filter((r) => r.path.endsWith('/chat/completions') && isChild(r.body)).map((r) => r.raw);
    assert.equal(raws.length, 2);
    const [a, b] = raws;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    const shared = a.slice(0, i);
    assert.ok(shared.includes('You have 20 tool rounds for this task.'), 'the whole system prompt is shared');
    assert.equal(a.slice(i).startsWith('A.'), true, `first difference is the task text, got ${a.slice(i, i + 20)}`);
    assert.equal(JSON.stringify(JSON.parse(a).tools), JSON.stringify(JSON.parse(b).tools));
  });
});
