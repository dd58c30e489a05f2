import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StartingTools } from '../../../extension/core/tools/starting-tools';
import type { McpManager } from '../../../extension/core/mcp/manager';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { tempDir, writeTree } from '../tools/helpers';
import { managerFor, STDIO_FIXTURE, starts, stdioEntry } from './fixture';

const system = (body: any): string => body.messages[0].content;
const toolMessages = (body: any): string[] => body.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
const deferredLine = (body: any): string => system(body).split('\n').find((l) => l.startsWith('Deferred')) ?? '';

/** The stdio fixture behind a shell that waits `delayS` first: a server that is surely still starting when the first request goes out. */
function slowEntry(delayS: number, env: Record<string, string> = {}): Record<string, unknown> {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return { command: 'sh', args: ['-c', `sleep ${delayS}; exec "$0" "$@"`, process.execPath, '--import', tsx, STDIO_FIXTURE], env };
}

/** What the host and the CLI pass the Agent: the manager's waits. */
const waits = (m: () => McpManager, o: { firstListed?: boolean } = {}): StartingTools => ({
  firstListed: async (signal) => (o.firstListed === false ? undefined : m().whenFirstListed(signal)),
  started: (signal) => m().whenStarted(signal),
});

describe('issue 18, MCP servers on first use (recorded model requests)', function () {
  this.timeout(120_000);
  let h: Harness | undefined;
  let manager: McpManager | undefined;
  afterEach(async () => {
    await manager?.close();
    await h?.close();
    h = manager = undefined;
  });

  it('MCP on first use: the FIRST request of a session names a never-seen server (mcp:fx) in its Deferred line', async () => {
    h = await createHarness({ startingTools: waits(() => manager!) });
    ({ manager } = managerFor({ fx: slowEntry(1) }));
    manager.attach(h.registry);
    assert.equal(manager.servers()[0].toolsFrom, 'none', 'no cached tool list: a server never seen before');
    h.server.enqueue({ text: 'hi' });
    const result = await h.agent.runTurn(h.agent.newSession(), 'hello', new AbortController().signal);
    assert.equal(result.reason, 'done');
    const [first] = h.bodies();
    assert.match(deferredLine(first), /^Deferred \(load with tool_search\): .*mcp:fx \(10\)$/);
    assert.equal(manager.servers()[0].state, 'running');
  });

  it('MCP on first use: without the seam the first request does not know the server (the bug the wait fixes)', async () => {
    h = await createHarness();
    ({ manager } = managerFor({ fx: slowEntry(1) }));
    manager.attach(h.registry);
    h.server.enqueue({ text: 'hi' });
    await h.agent.runTurn(h.agent.newSession(), 'hello', new AbortController().signal);
    assert.doesNotMatch(deferredLine(h.bodies()[0]), /mcp:fx/);
  });

  it('MCP on first use: the wait ends when the turn is stopped (the signal), and the turn ends cancelled', async () => {
    h = await createHarness({ startingTools: waits(() => manager!) });
    ({ manager } = managerFor({ fx: slowEntry(20) }));
    manager.attach(h.registry);
    const stop = new AbortController();
    const t0 = Date.now();
    setTimeout(() => stop.abort(), 300);
    const result = await h.agent.runTurn(h.agent.newSession(), 'hello', stop.signal);
    assert.equal(result.reason, 'cancelled');
    assert.ok(Date.now() - t0 < 5000, `the stop ended the wait (${Date.now() - t0} ms)`);
    assert.equal(h.bodies().length, 0, 'no request was sent');
  });

  it('MCP on first use: the wait is bounded by the start timeout', async () => {
    h = await createHarness({ startingTools: waits(() => manager!) });
    ({ manager } = managerFor({ fx: slowEntry(20) }, { startTimeoutS: 1 }));
    manager.attach(h.registry);
    h.server.enqueue({ text: 'hi' });
    const t0 = Date.now();
    const result = await h.agent.runTurn(h.agent.newSession(), 'hello', new AbortController().signal);
    assert.equal(result.reason, 'done');
    assert.ok(Date.now() - t0 < 6000, `bounded (${Date.now() - t0} ms)`);
    assert.doesNotMatch(deferredLine(h.bodies()[0]), /mcp:fx/);
  });

  it('MCP on first use: tool_search select of a server that is still starting waits for it and loads the tool', async () => {
    // The first request does not wait here, so tool_search meets the server while it starts.
    h = await createHarness({ startingTools: waits(() => manager!, { firstListed: false }) });
    ({ manager } = managerFor({ fx: slowEntry(1) }));
    manager.attach(h.registry);
    const m = manager;
    let stateAtSearch = '';
    h.server.setResponder(async (_body, i) => {
      if (i === 0) {
        stateAtSearch = m.servers()[0].state;
        return { toolCalls: [{ name: 'tool_search', arguments: JSON.stringify({ query: 'select:mcp__fx__echo' }) }] };
      }
      if (i === 1) return { toolCalls: [{ name: 'mcp__fx__echo', arguments: JSON.stringify({ text: 'first use' }) }] };
      return { text: 'done' };
    });
    await h.agent.runTurn(h.agent.newSession(), 'use the new server', new AbortController().signal);
    const [first, second, third] = h.bodies();
    assert.doesNotMatch(deferredLine(first), /mcp:fx/, 'the server had not listed its tools at the first request');
    assert.ok(['idle', 'starting'].includes(stateAtSearch), `still starting when tool_search ran (${stateAtSearch})`);
    assert.match(toolMessages(second)[0], /^loaded mcp__fx__echo; callable from your next round\n- mcp__fx__echo \(mcp:fx, exec\): Echo the text back\.$/);
    assert.ok(second.tools.some((t: any) => t.function.name === 'mcp__fx__echo'));
    assert.equal(toolMessages(third)[1], 'echo: first use');
  });

  it('MCP on first use: a keyword tool_search that finds nothing waits for starting servers before answering not found', async () => {
    h = await createHarness({ startingTools: waits(() => manager!, { firstListed: false }) });
    ({ manager } = managerFor({ fx: slowEntry(1) }));
    manager.attach(h.registry);
    h.server.enqueue({ toolCalls: [{ name: 'tool_search', arguments: JSON.stringify({ query: 'echo' }) }] }, { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'find echo', new AbortController().signal);
    assert.match(toolMessages(h.bodies()[1])[0], /^loaded mcp__fx__echo/);
  });

  it('MCP on first use: a workspace server the user declined is neither started nor waited for', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const ws = tempDir('sp-mcp-ws-');
    writeTree(ws, { '.mcp.json': JSON.stringify({ mcpServers: { ws: slowEntry(3, { MCP_FIXTURE_LOG: log }) } }) });
    let asked = 0;
    const waitedFor: string[][] = [];
    h = await createHarness({ startingTools: { firstListed: (signal) => manager!.whenFirstListed(signal, (s) => waitedFor.push(s)), started: (signal) => manager!.whenStarted(signal, (s) => waitedFor.push(s)) } });
    ({ manager } = managerFor({}, { workspace: ws, confirmServer: async () => (asked++, false) }));
    const seen: string[] = [];
    manager.onDidChange(() => seen.push(manager!.servers()[0].state));
    manager.attach(h.registry);
    h.server.enqueue({ toolCalls: [{ name: 'tool_search', arguments: JSON.stringify({ query: 'select:mcp__ws__echo' }) }] }, { text: 'done' });
    await h.agent.runTurn(h.agent.newSession(), 'hello', new AbortController().signal);
    assert.deepEqual(waitedFor, [], 'not waited for');
    assert.equal(asked, 1);
    assert.doesNotMatch(deferredLine(h.bodies()[0]), /mcp:ws/);
    assert.match(toolMessages(h.bodies()[1])[0], /^error \(not_found\)/);
    assert.equal(manager.servers()[0].state, 'declined');
    // A start announces 'starting' before it spawns anything; the server never got there.
    assert.ok(seen.includes('declined') && !seen.includes('starting'), `states: ${seen.join(', ')}`);
    assert.equal(starts(log), 0, 'not started');
  });

  it('MCP on first use: a workspace server is waited for once the user allows it (the question itself is not announced as a start)', async () => {
    const ws = tempDir('sp-mcp-ws-');
    writeTree(ws, { '.mcp.json': JSON.stringify({ mcpServers: { ws: stdioEntry() } }) });
    let announced: string[] | undefined;
    let stateWhenAnnounced = '';
    h = await createHarness({ startingTools: { firstListed: (signal) => manager!.whenFirstListed(signal, (s) => ((announced = s), (stateWhenAnnounced = manager!.servers()[0].state))), started: (signal) => manager!.whenStarted(signal) } });
    ({ manager } = managerFor({}, { workspace: ws, confirmServer: () => new Promise((r) => setTimeout(() => r({ allow: true, remember: false }), 300)) }));
    manager.attach(h.registry);
    h.server.enqueue({ text: 'hi' });
    await h.agent.runTurn(h.agent.newSession(), 'hello', new AbortController().signal);
    assert.deepEqual(announced, ['ws']);
    assert.notEqual(stateWhenAnnounced, 'idle', 'announced after the answer');
    assert.match(deferredLine(h.bodies()[0]), /mcp:ws \(10\)$/);
  });

  it('MCP on first use: a server with a cached tool list is not waited for (its tools are offered from the cache)', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const warm = managerFor({ fx: stdioEntry({ MCP_FIXTURE_LOG: log }) });
    warm.manager.attach(new ToolRegistry());
    await warm.manager.ready();
    await warm.manager.close();
    h = await createHarness({ startingTools: waits(() => manager!) });
    ({ manager } = managerFor({ fx: stdioEntry({ MCP_FIXTURE_LOG: log }) }, { cacheDir: warm.cacheDir }));
    manager.attach(h.registry);
    let waited: string[] | undefined;
    await manager.whenFirstListed(undefined, (s) => (waited = s));
    assert.equal(waited, undefined);
    assert.equal(manager.servers()[0].state, 'idle');
  });
});
