import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineTool, okResult, type AnyTool } from '../../../extension/core/tools/types';
import { searchTools } from '../../../extension/core/tools/core/tool-search';
import { createHarness, type Harness } from '../../fixtures/agent-harness';


/** A fake MCP-like group with many tools, as the benchmark uses until MCP exists. */
function fakeGroup(server: string, n: number): AnyTool[] {
  return Array.from({ length: n }, (_, i) =>
    defineTool({
      name: `mcp__${server}__tool_${i}`,
      group: `mcp:${server}`,
      traits: { readOnly: false, repeat: 'scan', subagents: true, images: true },
      permission: 'exec',
      summary: `Fake ${server} tool number ${i}`,
      description: `Does ${server} thing ${i}.`,
      input: z.object({ q: z.string().optional() }),
      deferred: true,
      async run() {
        return okResult(`ran ${i}`);
      },
    }) as AnyTool,
  );
}

/** The eager set (docs/design.md), sent in full every round; the tools' own definitions (deferred: false) must give exactly this. */
const EAGER_CORE = ['read_file', 'view_image', 'write_file', 'edit_file', 'shell', 'execute_code', 'grep', 'glob', 'ask_user', 'delegate_task', 'skill_view', 'set_mode', 'tool_search'];

const names = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);
const system = (body: any): string => body.messages[0].content;

describe('deferred tools and tool_search', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  it('sends only the eager set and one grouped Deferred line', async () => {
    h = await createHarness({ extraTools: fakeGroup('github', 12) });
    h.server.enqueue({ text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal);
    const body = h.bodies()[0];
    assert.deepEqual(names(body).sort(), EAGER_CORE.filter((n) => h.registry.has(n)).sort());
    assert.ok(names(body).length >= 12);
    assert.match(system(body), /^Deferred \(load with tool_search\): browser \(8\), git \(4\), media \(5\), memory \(1\), fs \(1\), todo \(1\), mcp:github \(12\)$/m);
    assert.doesNotMatch(JSON.stringify(body.tools), /git_diff|mcp__github/);
  });

  it('select: loads exactly those from the next round on, after the eager tools in load order', async () => {
    h = await createHarness();
    h.server.enqueue(
      { toolCalls: [{ name: 'tool_search', arguments: JSON.stringify({ query: 'select:git_diff,git_status,nope' }) }] },
      { toolCalls: [{ name: 'git_status', arguments: '{}' }] },
      { text: 'done' },
    );
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    const [first, second, third] = h.bodies();
    assert.ok(!names(first).includes('git_diff'));
    assert.deepEqual(names(second).slice(-2), ['git_diff', 'git_status'], 'appended in load order');
    assert.deepEqual(names(second).slice(0, -2), names(first));
    const searchResult = second.messages.find((m: any) => m.role === 'tool').content;
    assert.match(searchResult, /loaded git_diff, git_status/);
    assert.match(searchResult, /unknown: nope/);
    assert.deepEqual(names(third), names(second));
    assert.deepEqual(s.loadedTools, ['git_diff', 'git_status']);
    assert.deepEqual(h.store.getSession(s.id)!.loadedTools, ['git_diff', 'git_status'], 'persisted with the session');
    const loaded = h.events.filter((e) => e.type === 'tools.loaded');
    assert.deepEqual((loaded[0] as any).tools, ['git_diff', 'git_status']);
  });

  it('keyword search with +required terms returns at most 5, best first', () => {
    const tools = fakeGroup('github', 12);
    const found = searchTools(tools, '+github thing');
    assert.equal(found.length, 5);
    assert.ok(found.every((t) => t.group === 'mcp:github'));
    assert.deepEqual(searchTools(tools, '+gitlab github'), [], 'a required term that matches nothing excludes everything');
    const git = [...fakeGroup('x', 3), { ...tools[0], name: 'git_diff', group: 'git', summary: 'Show the diff', description: 'diff' } as AnyTool];
    assert.equal(searchTools(git, 'diff')[0].name, 'git_diff');
  });

  it('a direct call of a deferred tool runs, loads it, and says so', async () => {
    h = await createHarness({ extraTools: fakeGroup('github', 3) });
    h.server.enqueue({ toolCalls: [{ name: 'mcp__github__tool_1', arguments: '{}' }] }, { text: 'done' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    const second = h.bodies()[1];
    const result = second.messages.find((m: any) => m.role === 'tool').content;
    assert.equal(result, 'ran 1\nloaded mcp__github__tool_1 for this session');
    assert.equal(names(second).at(-1), 'mcp__github__tool_1');
  });

  it('a resumed session keeps its loaded tools', async () => {
    h = await createHarness();
    h.server.enqueue({ toolCalls: [{ name: 'tool_search', arguments: '{"query":"select:git_log"}' }] }, { text: 'a' }, { text: 'b' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'go', new AbortController().signal);
    const again = h.reopen();
    const resumed = again.openSession(s.id)!;
    await again.runTurn(resumed, 'more', new AbortController().signal);
    assert.equal(names(h.bodies()[2]).at(-1), 'git_log');
  });

  it('tools.deferred false sends everything; tools.eager keeps named tools eager', async () => {
    h = await createHarness({ settings: { 'tools.deferred': false } });
    h.server.enqueue({ text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal);
    assert.ok(names(h.bodies()[0]).includes('git_commit'));
    assert.doesNotMatch(system(h.bodies()[0]), /Deferred/);
    await h.close();

    h = await createHarness({ settings: { 'tools.eager': ['git_status'] } });
    h.server.enqueue({ text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal);
    assert.ok(names(h.bodies()[0]).includes('git_status'));
    assert.match(system(h.bodies()[0]), /git \(3\)/);
  });

  it('rounds with no change send byte-identical tools blocks and system prompts', async () => {
    h = await createHarness({ files: { 'a.txt': 'a\n' }, extraTools: fakeGroup('big', 60) });
    h.server.enqueue(
      { toolCalls: [{ name: 'glob', arguments: '{"pattern":"*"}' }] },
      { toolCalls: [{ name: 'read_file', arguments: '{"path":"a.txt"}' }] },
      { toolCalls: [{ name: 'tool_search', arguments: '{"query":"select:mcp__big__tool_7"}' }] },
      { toolCalls: [{ name: 'grep', arguments: '{"pattern":"a"}' }] },
      { text: 'done' },
    );
    await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    const raws = h.server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.raw);
    const block = (raw: string) => JSON.stringify(JSON.parse(raw).tools);
    for (const raw of raws) assert.ok(raw.includes(block(raw)), 'the serialized tools block appears verbatim in the body');
    assert.equal(block(raws[0]), block(raws[1]));
    assert.equal(block(raws[1]), block(raws[2]));
    assert.notEqual(block(raws[2]), block(raws[3]), 'a loaded tool changes the block once');
    assert.equal(block(raws[3]), block(raws[4]));
    const systems = h.bodies().map(system);
    assert.equal(new Set(systems).size, 1, 'the system prompt is byte-stable, loading included');
  });
});
