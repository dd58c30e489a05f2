import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Agent } from '../../../extension/core/agent/agent';
import { AttachmentStore } from '../../../extension/core/images/store';
import { limitsFromSettings } from '../../../extension/core/images/limits';
import { silentLogger } from '../../../extension/core/log';
import { createOpenAIClient } from '../../../extension/core/model/openai-client';
import { createDiskFileReader } from '../../../extension/core/tools/disk-reader';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { makePng } from '../../fixtures/images/make';

const signal = () => new AbortController().signal;
const viewCall = (id: string, p: string) => ({ toolCalls: [{ id, name: 'view_image', arguments: JSON.stringify({ path: p }) }] });

function putImage(h: Harness, rel: string, bytes: Buffer): void {
  fs.mkdirSync(path.dirname(path.join(h.workspace, rel)), { recursive: true });
  fs.writeFileSync(path.join(h.workspace, rel), bytes);
}

const dataUrlOf = (bytes: Buffer, mime = 'image/png') => `data:${mime};base64,${bytes.toString('base64')}`;

describe('images: view_image through the agent', () => {
  let h: Harness;
  const png = makePng({ width: 300, height: 200 });
  afterEach(async () => h && (await h.close()));

  it('on a vision model: the tool line is short and the picture follows the tool results in a user message', async () => {
    h = await createHarness();
    putImage(h, 'shots/ui.png', png);
    h.server.enqueue(viewCall('v1', 'shots/ui.png'), { text: 'A gradient.' });
    const s = h.agent.newSession();
    const r = await h.agent.runTurn(s, 'look at the screenshot', signal());
    assert.equal(r.reason, 'done');
    const msgs = h.bodies()[1].messages;
    const toolIdx = msgs.findIndex((m: any) => m.role === 'tool');
    assert.deepEqual(msgs[toolIdx], { role: 'tool', tool_call_id: 'v1', content: 'image attached: shots/ui.png' });
    assert.deepEqual(msgs[toolIdx + 1], {
      role: 'user',
      content: [
        { type: 'text', text: 'image attached: shots/ui.png' },
        { type: 'image_url', image_url: { url: dataUrlOf(png) } },
      ],
    });
    assert.equal(msgs.length, toolIdx + 2, 'the picture is the last message of the request');
    const stored = JSON.stringify(h.store.getMessages(s.id));
    assert.ok(!stored.includes(png.toString('base64').slice(0, 40)), 'state.db holds a reference, not the image data');
    assert.match(stored, /"imageId":"[0-9a-f]{24}"/);
    const result = h.events.find((e) => e.type === 'tool.result') as any;
    assert.equal(result.summary, 'image attached: shots/ui.png');
  });

  it('on a model without vision: refused with vision_unsupported, and no picture is sent', async () => {
    h = await createHarness({ settings: { 'model.supportsImages': false } });
    putImage(h, 'shots/ui.png', png);
    h.server.enqueue(viewCall('v1', 'shots/ui.png'), { text: 'I cannot see it.' });
    await h.agent.runTurn(h.agent.newSession(), 'look', signal());
    const msgs = h.bodies()[1].messages;
    const tool = msgs.find((m: any) => m.role === 'tool');
    assert.match(tool.content, /^error \(vision_unsupported\): the model gpt-4o does not accept images, so view_image cannot show shots\/ui\.png\. /);
    assert.match(tool.content, /snowpea\.model\.supportsImages/);
    assert.equal(msgs[msgs.length - 1], tool, 'no user message follows');
    assert.ok(!h.server.requests.some((r) => r.raw.includes('image_url')));
  });

  it('reports a missing file, a text file and an oversized image as tool errors the model can act on', async () => {
    h = await createHarness({ files: { 'notes.txt': 'hello\n' }, settings: { 'images.maxFileBytes': 1024 } });
    putImage(h, 'big.png', makePng({ width: 200, height: 200, noise: 1 }));
    h.server.enqueue(
      { toolCalls: [{ id: 'a', name: 'view_image', arguments: '{"path":"shot.png"}' }, { id: 'b', name: 'view_image', arguments: '{"path":"notes.txt"}' }, { id: 'c', name: 'view_image', arguments: '{"path":"big.png"}' }] },
      { text: 'ok' },
    );
    await h.agent.runTurn(h.agent.newSession(), 'look', signal());
    const tools = h.bodies()[1].messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    assert.match(tools[0], /^error \(not_found\): shot\.png does not exist\./);
    assert.equal(tools[1], 'error (invalid_arguments): notes.txt is not an image Snowpea can attach: its 6 bytes are not PNG, JPEG, GIF or WebP');
    assert.match(tools[2], /^error \(too_large\): big\.png is [\d.]+ KB \(\d+ bytes\), over the 1\.0 KB \(1024 bytes\) limit for images/);
    assert.ok(!h.bodies()[1].messages.some((m: any) => m.role === 'user' && Array.isArray(m.content)));
  });

  it('two images in one round: one user message, captioned with the count', async () => {
    h = await createHarness();
    putImage(h, 'a.png', png);
    putImage(h, 'b.png', makePng({ width: 10, height: 10 }));
    h.server.enqueue({ toolCalls: [{ id: 'a', name: 'view_image', arguments: '{"path":"a.png"}' }, { id: 'b', name: 'view_image', arguments: '{"path":"b.png"}' }] }, { text: 'two' });
    await h.agent.runTurn(h.agent.newSession(), 'compare', signal());
    const last = h.bodies()[1].messages.at(-1);
    assert.equal(last.role, 'user');
    assert.deepEqual(last.content.map((p: any) => p.type), ['text', 'image_url', 'image_url']);
    assert.equal(last.content[0].text, '2 image(s) attached');
  });

  it('an image inside a pruned old round becomes a text stub in the request', async () => {
    h = await createHarness({ settings: { 'agent.keepToolRounds': 2 }, files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } });
    putImage(h, 'shots/ui.png', png);
    h.server.enqueue(
      viewCall('v1', 'shots/ui.png'),
      { toolCalls: [{ id: 'r1', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
      { toolCalls: [{ id: 'r2', name: 'read_file', arguments: '{"path":"b.txt"}' }] },
      { text: 'done' },
    );
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'look, then read', signal());
    const bodies = h.bodies();
    assert.equal(bodies.length, 4);
    assert.ok(JSON.stringify(bodies[1]).includes(dataUrlOf(png)), 'the newest round carries the picture');
    const carrier = (b: any) => b.messages.find((m: any) => m.role === 'user' && (Array.isArray(m.content) || /image attached/.test(m.content)));
    assert.ok(JSON.stringify(bodies[2]).includes(dataUrlOf(png)), 'still within agent.keepToolRounds');
    assert.equal(carrier(bodies[3]).content, 'image attached: shots/ui.png\n[earlier image shots/ui.png pruned; call view_image again if you need it]');
    assert.ok(!bodies[3].messages.some((m: any) => JSON.stringify(m).includes('data:image')));
    const stored = h.store.getMessages(s.id).find((m) => m.role === 'user' && (m as any).attachedBy === 'tools') as any;
    assert.equal(stored.content[1].type, 'image', 'the stored transcript keeps the reference');
  });

  it('a resumed session (fresh agent and store on the same folders) still sends its images', async () => {
    h = await createHarness();
    putImage(h, 'shots/ui.png', png);
    h.server.enqueue(viewCall('v1', 'shots/ui.png'), { text: 'seen' }, { text: 'still seen' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'look', signal());
    fs.rmSync(path.join(h.workspace, 'shots'), { recursive: true });

    const settings = h.settings;
    const client = createOpenAIClient({ baseUrl: h.server.baseUrl, apiKey: 'k', model: settings['model.name'], requestTimeoutS: 10, maxRetries: 0, retryBaseDelayMs: 5 });
    const fresh = new Agent({
      workspaceRoot: h.workspace,
      settings: () => settings,
      client: () => client,
      registry: h.registry,
      store: h.store,
      fileReader: createDiskFileReader(),
      approver: { approve: async () => 'allow' },
      logger: silentLogger,
      scratchRoot: path.join(h.workspace, 'other-scratch'),
      attachments: new AttachmentStore({ dir: h.agent.attachments.dir, limits: () => limitsFromSettings(settings) }),
    });
    try {
      const resumed = fresh.openSession(s.id)!;
      await fresh.runTurn(resumed, 'and again?', signal());
      const body = h.bodies()[2];
      const carrier = body.messages.find((m: any) => m.role === 'user' && Array.isArray(m.content));
      assert.deepEqual(carrier.content[1], { type: 'image_url', image_url: { url: dataUrlOf(png) } });
    } finally {
      fresh.dispose();
    }
  });
});
