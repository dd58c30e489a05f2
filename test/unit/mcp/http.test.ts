import assert from 'node:assert/strict';
import type { McpManager } from '../../../extension/core/mcp/manager';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { startMcpHttpServer, type McpHttpFixture } from '../../fixtures/mcp-http-server';
import { makeCtx, tempDir } from '../tools/helpers';
import { managerFor } from './fixture';

describe('MCP servers over HTTP (127.0.0.1)', function () {
  this.timeout(120_000);
  let fixture: McpHttpFixture | undefined;
  let manager: McpManager | undefined;
  afterEach(async () => {
    await manager?.close();
    await fixture?.close();
    manager = fixture = undefined;
  });

  it('Streamable HTTP: lists and calls tools, with headers from ${env:...}', async () => {
    fixture = await startMcpHttpServer();
    ({ manager } = managerFor({ web: { type: 'http', url: fixture.url, headers: { 'x-fixture-token': '${env:FIXTURE_TOKEN}' } } }, { env: { FIXTURE_TOKEN: 'tok-42' } }));
    const reg = new ToolRegistry();
    manager.attach(reg);
    await manager.ready();
    assert.deepEqual(reg.all().map((t) => t.name), ['mcp__web__weather', 'mcp__web__whoami']);
    const ctx = makeCtx(tempDir());
    assert.equal((await reg.invoke('mcp__web__weather', '{"city":"Oslo"}', ctx)).content, 'sunny in Oslo');
    assert.equal((await reg.invoke('mcp__web__whoami', '{}', ctx)).content, 'token=tok-42');
    assert.equal(manager.servers()[0].transport, 'http');
    assert.ok(fixture.hits.every((h) => h === 'POST /mcp' || h === 'GET /mcp' || h === 'DELETE /mcp'));
  });

  it('a server that went away is an error, and the next call reconnects', async () => {
    fixture = await startMcpHttpServer();
    const port = Number(new URL(fixture.url).port);
    ({ manager } = managerFor({ web: { type: 'http', url: fixture.url } }));
    const reg = new ToolRegistry();
    manager.attach(reg);
    await manager.ready();
    const ctx = makeCtx(tempDir());
    await fixture.close();
    const down = await reg.invoke('mcp__web__weather', '{"city":"Rome"}', ctx);
    assert.equal(down.error?.code, 'failed');
    assert.match(down.content, /the MCP server "web" could not be reached for weather \(.+\); it will be reconnected on the next call/);
    fixture = await startMcpHttpServer({ port });
    assert.equal((await reg.invoke('mcp__web__weather', '{"city":"Rome"}', ctx)).content, 'sunny in Rome');
    assert.equal(manager.servers()[0].restarts, 1);
  });

  it('falls back to SSE when the url does not speak Streamable HTTP', async () => {
    fixture = await startMcpHttpServer({ legacySse: true });
    ({ manager } = managerFor({ old: { url: fixture.url } }));
    const reg = new ToolRegistry();
    manager.attach(reg);
    await manager.ready();
    assert.equal(manager.servers()[0].state, 'running', manager.servers()[0].lastError);
    assert.equal((await reg.invoke('mcp__old__weather', '{"city":"Lima"}', makeCtx(tempDir()))).content, 'sunny in Lima');
    assert.ok(fixture.hits.includes('POST /sse'), 'tried Streamable HTTP first');
    assert.ok(fixture.hits.includes('GET /sse') && fixture.hits.includes('POST /messages'), 'then SSE');
  });

  it('an unreachable url is a failed start naming both attempts', async () => {
    fixture = await startMcpHttpServer();
    const url = fixture.url;
    await fixture.close();
    fixture = undefined;
    ({ manager } = managerFor({ gone: { type: 'http', url } }));
    manager.attach(new ToolRegistry());
    await manager.ready();
    const st = manager.servers()[0];
    assert.equal(st.state, 'failed');
    assert.match(st.lastError!, /^Streamable HTTP failed \(.+\), and so did SSE \(.+\)$/);
  });
});
