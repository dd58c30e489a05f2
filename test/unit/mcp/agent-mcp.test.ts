import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { McpManager } from '../../../extension/core/mcp/manager';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { tempDir } from '../tools/helpers';
import { managerFor, starts, stdioEntry } from './fixture';

const names = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);
const system = (body: any): string => body.messages[0].content;
const toolMessages = (body: any): string[] => body.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);

describe('MCP tools in a session (recorded model requests)', function () {
  this.timeout(120_000);
  let h: Harness | undefined;
  let manager: McpManager | undefined;
  afterEach(async () => {
    await manager?.close();
    await h?.close();
    h = manager = undefined;
  });

  it('counts the cached group in the deferred line; tool_search starts the server and loads the tool with its own schema', async () => {
    const log = path.join(tempDir(), 'starts.log');
    const entry = { fx: stdioEntry({ MCP_FIXTURE_LOG: log }) };
    const warm = managerFor(entry);
    warm.manager.attach(new ToolRegistry());
    await warm.manager.ready();
    await warm.manager.close();
    assert.equal(starts(log), 1);

    h = await createHarness();
    ({ manager } = managerFor(entry, { cacheDir: warm.cacheDir }));
    manager.attach(h.registry);
    let startsAfterSearch = -1;
    const m = manager;
    h.server.setResponder(async (_body, i) => {
      if (i === 0) return { toolCalls: [{ name: 'tool_search', arguments: JSON.stringify({ query: 'select:mcp__fx__echo' }) }] };
      if (i === 1) {
        await m.ready();
        startsAfterSearch = starts(log);
        return { toolCalls: [{ name: 'mcp__fx__echo', arguments: JSON.stringify({ text: 'hello' }) }] };
      }
      return { text: 'done' };
    });
    await h.agent.runTurn(h.agent.newSession(), 'use the fixture', new AbortController().signal);
    const [first, second, third] = h.bodies();
    assert.match(system(first), /^Deferred \(load with tool_search\): .*, mcp:fx \(10\)$/m);
    assert.ok(!names(first).some((n) => n.startsWith('mcp__')), 'no MCP schema before loading');
    assert.equal(startsAfterSearch, 2, 'tool_search started the server before the tool was called');
    const echo = second.tools.find((t: any) => t.function.name === 'mcp__fx__echo');
    assert.deepEqual(echo, {
      type: 'function',
      function: { name: 'mcp__fx__echo', description: 'Echo the text back.', parameters: { type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] } },
    });
    assert.match(toolMessages(second)[0], /^loaded mcp__fx__echo; callable from your next round\n- mcp__fx__echo \(mcp:fx, exec\): Echo the text back\.$/);
    assert.equal(toolMessages(third)[1], 'echo: hello');
    assert.equal(starts(log), 2);
  });

  it('an MCP image reaches the model as a picture; a crash is reported and the next call restarts; a hang times out', async () => {
    const log = path.join(tempDir(), 'starts.log');
    h = await createHarness({ settings: { 'mcp.callTimeoutS': 1 } });
    ({ manager } = managerFor({ fx: stdioEntry({ MCP_FIXTURE_LOG: log }) }));
    manager.attach(h.registry);
    await manager.ready();
    h.server.enqueue(
      { toolCalls: [{ name: 'mcp__fx__picture', arguments: '{}' }] },
      { toolCalls: [{ name: 'mcp__fx__crash', arguments: '{}' }] },
      { toolCalls: [{ name: 'mcp__fx__echo', arguments: '{"text":"back"}' }] },
      { toolCalls: [{ name: 'mcp__fx__hang', arguments: '{}' }] },
      { text: 'done' },
    );
    const result = await h.agent.runTurn(h.agent.newSession(), 'go', new AbortController().signal);
    assert.equal(result.text, 'done');
    const bodies = h.bodies();
    const afterPicture = bodies[1];
    assert.equal(toolMessages(afterPicture)[0], 'a 6x4 red picture\nimage attached: fx-picture-1.png\nloaded mcp__fx__picture for this session');
    const attached = afterPicture.messages.at(-1);
    assert.equal(attached.role, 'user');
    assert.deepEqual(attached.content[0], { type: 'text', text: 'image attached: fx-picture-1.png' });
    assert.equal(attached.content[1].type, 'image_url');
    assert.match(attached.content[1].image_url.url, /^data:image\/png;base64,iVBOR/);
    assert.doesNotMatch(toolMessages(afterPicture)[0], /base64|iVBOR/);

    const tools = toolMessages(bodies[4]);
    assert.match(tools[1], /^error \(failed\): the MCP server "fx" crashed during crash \(the process ended \(exit code 7\); stderr: fixture: crashing on purpose\); it will be restarted on the next call/);
    assert.match(tools[2], /^echo: back/);
    assert.match(tools[3], /^error \(timeout\): the MCP server "fx" did not answer hang within 1 s \(mcp\.callTimeoutS\)/);
    assert.equal(starts(log), 2, 'restarted once after the crash');
    assert.equal(manager.servers()[0].restarts, 1);
  });

  it('on a model without vision the MCP image becomes the text marker', async () => {
    h = await createHarness({ supportsImages: false });
    ({ manager } = managerFor({ fx: stdioEntry() }));
    manager.attach(h.registry);
    await manager.ready();
    h.server.enqueue({ toolCalls: [{ name: 'mcp__fx__picture', arguments: '{}' }] }, { text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), 'look', new AbortController().signal);
    const last = h.bodies()[1].messages.at(-1);
    assert.equal(last.role, 'user');
    assert.equal(last.content, 'image attached: fx-picture-1.png\n[image: fx-picture-1.png, 6x4, not sent: model has no vision]');
  });
});
