import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONSENT_FILE } from '../../../extension/core/mcp/cache';
import type { McpManager } from '../../../extension/core/mcp/manager';
import type { McpServerDef } from '../../../extension/core/mcp/types';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { makeCtx, tempDir, writeTree } from '../tools/helpers';
import { managerFor, starts, stdioEntry } from './fixture';

/** A workspace whose .mcp.json defines the stdio fixture as "ws". */
function workspaceWith(log: string, extraArgs: string[] = []): string {
  const ws = tempDir('sp-mcp-ws-');
  writeTree(ws, { '.mcp.json': JSON.stringify({ mcpServers: { ws: stdioEntry({ MCP_FIXTURE_LOG: log }, extraArgs) } }) });
  return ws;
}

describe('workspace-defined MCP servers: trust and first-start confirmation', function () {
  this.timeout(120_000);
  const open: McpManager[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((m) => m.close()));
  });
  const setup = (...a: Parameters<typeof managerFor>) => {
    const s = managerFor(...a);
    open.push(s.manager);
    return s;
  };

  it('does not start, or offer tools, in an untrusted workspace', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const asked: string[] = [];
    const { manager } = setup({}, { workspace: workspaceWith(log), workspaceTrusted: () => false, confirmServer: async (d) => (asked.push(d.name), true) });
    const reg = new ToolRegistry();
    manager.attach(reg);
    await manager.ready();
    assert.equal(reg.all().length, 0);
    const st = manager.servers()[0];
    assert.deepEqual([st.state, st.source.label, st.lastError], ['blocked', '.mcp.json', 'defined by the workspace (.mcp.json), which is not trusted']);
    const r = await manager.callTool('ws', 'echo', { text: 'x' }, makeCtx(tempDir()));
    assert.equal(r.error?.code, 'policy_blocked');
    assert.match(r.content, /is defined by the workspace \(\.mcp\.json\), which is not trusted, so it does not start/);
    assert.equal(starts(log), 0);
    assert.deepEqual(asked, []);
  });

  it('asks once per definition: the answer is remembered, a changed definition asks again, and "no" keeps its tools away', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const ws = workspaceWith(log);
    const asked: McpServerDef[] = [];
    const yes = async (d: McpServerDef) => (asked.push(d), true);
    const first = setup({}, { workspace: ws, confirmServer: yes });
    const reg = new ToolRegistry();
    first.manager.attach(reg);
    await first.manager.ready();
    assert.equal(asked.length, 1);
    assert.equal(asked[0].name, 'ws');
    assert.equal(asked[0].source.label, '.mcp.json');
    assert.equal(reg.all().length, 10);
    await first.manager.close();

    const second = setup({}, { workspace: ws, cacheDir: first.cacheDir, confirmServer: yes });
    const reg2 = new ToolRegistry();
    second.manager.attach(reg2);
    assert.equal((await reg2.invoke('mcp__ws__echo', '{"text":"again"}', makeCtx(ws))).content, 'echo: again');
    assert.equal(asked.length, 1, 'remembered');
    await second.manager.close();

    writeTree(ws, { '.mcp.json': JSON.stringify({ mcpServers: { ws: stdioEntry({ MCP_FIXTURE_LOG: log, MCP_FIXTURE_VALUE: 'changed' }) } }) });
    const startsBefore = starts(log);
    const third = setup({}, { workspace: ws, cacheDir: first.cacheDir, confirmServer: async (d) => (asked.push(d), false) });
    const reg3 = new ToolRegistry();
    third.manager.attach(reg3);
    await third.manager.ready();
    assert.equal(asked.length, 2, 'the changed definition asked again');
    assert.equal(starts(log), startsBefore, 'declined: not started');
    assert.equal(reg3.all().length, 0);
    assert.equal(third.manager.servers()[0].state, 'declined');
    const denied = await third.manager.callTool('ws', 'echo', { text: 'x' }, makeCtx(ws));
    assert.equal(denied.error?.code, 'denied');
    const answers = JSON.parse(fs.readFileSync(path.join(first.cacheDir, CONSENT_FILE), 'utf8')).answers;
    assert.deepEqual(Object.values(answers).map((a: any) => [a.name, a.allowed]).sort(), [['ws', false], ['ws', true]]);

    third.manager.forgetConsent('ws');
    assert.equal(third.manager.servers()[0].state, 'idle', 'forgetting the answer makes it ask again on the next start');
  });

  it('without a way to ask, a workspace server does not start and says why', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const { manager } = setup({}, { workspace: workspaceWith(log) });
    manager.attach(new ToolRegistry());
    const r = await manager.callTool('ws', 'echo', { text: 'x' }, makeCtx(tempDir()));
    assert.equal(r.error?.code, 'denied');
    assert.match(r.content, /needs the user's confirmation, and there is no way to ask here/);
    assert.equal(starts(log), 0);
  });
});
