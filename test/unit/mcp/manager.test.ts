import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatMcpServers } from '../../../extension/core/mcp/format';
import type { McpManager } from '../../../extension/core/mcp/manager';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import type { ToolAttachments } from '../../../extension/core/tools/types';
import { eventually, makeCtx, processAlive, tempDir } from '../tools/helpers';
import { managerFor, starts, stdioEntry } from './fixture';

const call = (reg: ToolRegistry, name: string, args: unknown, ctx = makeCtx(tempDir())) => reg.invoke(name, JSON.stringify(args), ctx);

describe('McpManager with a real stdio server', function () {
  this.timeout(120_000);
  const open: McpManager[] = [];
  const track = <T extends { manager: McpManager }>(s: T) => (open.push(s.manager), s);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((m) => m.close()));
  });

  it('starts an uncached server to learn its tools, caches them, and a later session registers them without starting it', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const first = track(managerFor({ fx: stdioEntry({ MCP_FIXTURE_LOG: log }) }));
    const reg1 = new ToolRegistry();
    first.manager.attach(reg1);
    await first.manager.ready();
    assert.equal(starts(log), 1);
    const names = reg1.all().map((t) => t.name);
    assert.deepEqual(names.sort(), ['mcp__fx__crash', 'mcp__fx__echo', 'mcp__fx__env_value', 'mcp__fx__fail', 'mcp__fx__files_read', 'mcp__fx__grow', 'mcp__fx__hang', 'mcp__fx__picture', 'mcp__fx__resource', 'mcp__fx__throws']);
    const echo = reg1.get('mcp__fx__echo')!;
    assert.deepEqual([echo.group, echo.permission, echo.deferred, echo.description], ['mcp:fx', 'exec', true, 'Echo the text back.']);
    assert.deepEqual(reg1.jsonSchemaOf('mcp__fx__echo'), { type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] });
    assert.equal(reg1.get('mcp__fx__files_read')!.summary, 'Read a fixture file');
    await first.manager.close();

    const second = track(managerFor({ fx: stdioEntry({ MCP_FIXTURE_LOG: log }) }, { cacheDir: first.cacheDir }));
    const reg2 = new ToolRegistry();
    second.manager.attach(reg2);
    await second.manager.ready();
    assert.equal(reg2.all().length, 10, 'registered from the cache');
    assert.equal(starts(log), 1, 'not started');
    assert.deepEqual(
      (({ state, toolCount, toolsFrom }) => ({ state, toolCount, toolsFrom }))(second.manager.servers()[0]),
      { state: 'idle', toolCount: 10, toolsFrom: 'cache' },
    );
    assert.match(formatMcpServers(second.manager)[0], /^fx {2}idle \(tools cached\) {2}10 tools {2}setting mcp\.servers \(user settings\) {2}stdio: .*mcp-stdio-server\.ts$/);
    const ctx = makeCtx(tempDir());
    const r = await call(reg2, 'mcp__fx__echo', { text: 'hi' }, ctx);
    assert.equal(r.content, 'echo: hi');
    assert.equal(starts(log), 2, 'started lazily by the call');
    assert.deepEqual(ctx.outputs, ['starting the MCP server "fx"…\n'], 'the running tool card says the server is starting');
    const again = makeCtx(tempDir());
    await call(reg2, 'mcp__fx__echo', { text: 'hi' }, again);
    assert.deepEqual(again.outputs, [], 'a running server starts nothing');
    assert.equal(second.manager.servers()[0].state, 'running');
    assert.equal(second.manager.servers()[0].toolsFrom, 'live');
  });

  it('turns text, image, resource and error results into tool results; validates arguments against the server schema before approval', async () => {
    const { manager } = track(managerFor({ fx: stdioEntry() }));
    const reg = new ToolRegistry();
    manager.attach(reg);
    await manager.ready();
    const added: Array<{ data: string; name: string; mime?: string }> = [];
    const attachments: ToolAttachments = {
      supportsImages: true,
      addFile: async () => assert.fail('not used'),
      addBytes: async () => assert.fail('not used'),
      addBase64: async (data, o) => (added.push({ data, name: o.name, mime: o.mime }), { type: 'image', imageId: 'img1', name: o.name, mime: 'image/png', width: 6, height: 4 }),
    };
    const ctx = makeCtx(tempDir(), { extra: { attachments } });
    const pic = await call(reg, 'mcp__fx__picture', {}, ctx);
    assert.equal(pic.content, 'a 6x4 red picture\nimage attached: fx-picture-1.png');
    assert.equal(pic.images?.[0].imageId, 'img1');
    assert.equal(Buffer.from(added[0].data, 'base64').subarray(1, 4).toString(), 'PNG');
    assert.equal(added[0].mime, 'image/png');
    assert.equal(ctx.asked[0].permission, 'exec');
    assert.equal(ctx.asked[0].summary, 'fx: picture');

    const res = await call(reg, 'mcp__fx__resource', {}, ctx);
    assert.equal(res.content, '[resource file:///notes.txt (text/plain)]\nnote one');
    const fail = await call(reg, 'mcp__fx__fail', {}, ctx);
    assert.equal(fail.error?.code, 'failed');
    assert.equal(fail.content, 'error (failed): the MCP server "fx" reported an error from fail: the widget is broken');
    const thrown = await call(reg, 'mcp__fx__throws', {}, ctx);
    assert.equal(thrown.content, 'error (failed): the MCP server "fx" returned an error for throws: database is locked');

    const before = ctx.asked.length;
    const missing = await call(reg, 'mcp__fx__echo', {}, ctx);
    assert.equal(missing.error?.code, 'invalid_arguments');
    assert.match(missing.content, /must have required property 'text'; expected a JSON object with: text \(string, required\)/);
    const wrongType = await call(reg, 'mcp__fx__echo', { text: 5 }, ctx);
    assert.match(wrongType.content, /error \(invalid_arguments\): .*text must be string/);
    assert.equal(ctx.asked.length, before, 'no approval was asked for invalid calls');
    const echo = await call(reg, 'mcp__fx__echo', { text: 'ok' }, ctx);
    assert.equal(ctx.asked.at(-1)!.summary, 'fx: echo {"text":"ok"}');
    assert.equal(echo.content, 'echo: ok');

    assert.equal((await call(reg, 'mcp__fx__grow', {}, ctx)).content, 'grew');
    assert.ok(await eventually(() => reg.has('mcp__fx__grown')), 'a tools/list_changed notification registers the new tool');
    assert.equal(manager.servers()[0].toolCount, 11);
  });

  it('a server that never answers initialize fails its start after the start timeout, and is killed', async () => {
    const { manager } = track(managerFor({ mute: stdioEntry({}, ['--silent']) }, { startTimeoutS: 1 }));
    manager.attach(new ToolRegistry());
    await manager.ready();
    const st = manager.servers()[0];
    assert.equal(st.state, 'failed');
    assert.match(st.lastError!, /timed out/i);
    const pid = manager.pidOf('mute')!;
    assert.ok(pid > 0);
    assert.ok(await eventually(() => !processAlive(pid)), 'the silent process was killed');
  });

  it('stopping a server while it starts (the progress Cancel) kills it at once; the waiting call says so', async () => {
    // --silent never answers initialize: without the abort, the start would wait out its 100 s timeout.
    const { manager } = track(managerFor({ mute: stdioEntry({}, ['--silent']) }, { startTimeoutS: 100, startUncached: false }));
    manager.attach(new ToolRegistry());
    const ctx = makeCtx(tempDir());
    const pending = manager.callTool('mute', 'echo', { text: 'x' }, ctx);
    assert.ok(await eventually(() => manager.servers()[0].state === 'starting' && manager.pidOf('mute') !== undefined));
    assert.deepEqual(ctx.outputs, ['starting the MCP server "mute"…\n'], 'the running tool card says the server is starting');
    const pid = manager.pidOf('mute')!;
    await manager.stop('mute');
    const r = await pending;
    assert.equal(r.error?.code, 'cancelled', r.content);
    assert.equal(r.content, 'error (cancelled): the MCP server "mute" was stopped while it was starting');
    assert.equal(manager.servers()[0].state, 'stopped');
    assert.equal(manager.servers()[0].lastError, undefined, 'not recorded as a failure');
    assert.ok(await eventually(() => !processAlive(pid)), 'the process was killed');
  });

  it('a crash mid-call is an error naming the exit and stderr; the next call restarts the server', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const { manager } = track(managerFor({ fx: stdioEntry({ MCP_FIXTURE_LOG: log }) }));
    const reg = new ToolRegistry();
    manager.attach(reg);
    await manager.ready();
    const crash = await call(reg, 'mcp__fx__crash', {});
    assert.equal(crash.error?.code, 'failed');
    assert.match(crash.content, /the MCP server "fx" crashed during crash \(the process ended \(exit code 7\); stderr: fixture: crashing on purpose\); it will be restarted on the next call/);
    assert.equal(manager.servers()[0].state, 'crashed');
    assert.match(manager.servers()[0].lastError!, /^crashed: the process ended \(exit code 7\)/);
    const echo = await call(reg, 'mcp__fx__echo', { text: 'again' });
    assert.equal(echo.content, 'echo: again');
    assert.equal(starts(log), 2);
    assert.equal(manager.servers()[0].restarts, 1);
    assert.match(formatMcpServers(manager)[0], /running \(restarted 1x\)/);
  });

  it('a hanging call times out after mcp.callTimeoutS and the server keeps serving', async () => {
    const { manager } = track(managerFor({ fx: stdioEntry() }));
    const reg = new ToolRegistry();
    manager.attach(reg);
    await manager.ready();
    const ctx = makeCtx(tempDir(), { settings: { 'mcp.callTimeoutS': 1 } });
    const hang = await call(reg, 'mcp__fx__hang', {}, ctx);
    assert.equal(hang.error?.code, 'timeout');
    assert.match(hang.content, /the MCP server "fx" did not answer hang within 1 s \(mcp\.callTimeoutS\)/);
    assert.equal((await call(reg, 'mcp__fx__echo', { text: 'still here' }, ctx)).content, 'echo: still here');
  });

  it('a server that exits at start reports why, and backs off before retrying', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const { manager } = track(managerFor({ bad: stdioEntry({ MCP_FIXTURE_LOG: log }, ['--crash-on-start']) }, { restartBackoff: { baseMs: 60_000, maxWaitMs: 10 } }));
    const reg = new ToolRegistry();
    manager.attach(reg);
    await manager.ready();
    const st = manager.servers()[0];
    assert.equal(st.state, 'failed');
    assert.match(st.lastError!, /exit code 3.*stderr: fixture: cannot open the database/);
    assert.equal(reg.all().length, 0, 'no tools known');
    const again = await manager.callTool('bad', 'echo', {}, makeCtx(tempDir()));
    assert.equal(again.error?.code, 'unavailable');
    assert.match(again.content, /failed 1 times in a row .*; the next restart is in \d+ s/);
    assert.equal(starts(log), 1, 'no restart inside the backoff');
    assert.match(formatMcpServers(manager).join('\n'), /bad {2}failed {2}0 tools .*\n {4}last error: .*exit code 3/);
  });

  it('dispose kills the whole process tree of a stdio server', async () => {
    const pidFile = path.join(tempDir(), 'child.pid');
    const { manager } = track(managerFor({ fx: stdioEntry({ MCP_FIXTURE_CHILD_PID_FILE: pidFile }) }));
    manager.attach(new ToolRegistry());
    await manager.ready();
    const server = manager.pidOf('fx')!;
    const child = Number(fs.readFileSync(pidFile, 'utf8'));
    assert.ok(processAlive(server) && processAlive(child));
    await manager.close();
    assert.ok(await eventually(() => !processAlive(server) && !processAlive(child)), 'server and grandchild are gone');
    assert.equal(manager.servers()[0].state, 'stopped');
  });
});
