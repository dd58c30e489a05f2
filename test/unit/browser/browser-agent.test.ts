import assert from 'node:assert/strict';
import { closeAllBrowsers } from '../../../extension/core/browser/index';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { startBrowserSite, type BrowserSite } from '../../fixtures/browser-site';
import { pngSize } from './helpers';

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });
const signal = () => new AbortController().signal;

/**
 * The browser tools as the model meets them: through the real Agent (built-in tools, the shared
 * browser manager, the user's Chromium found on PATH) against the scripted model server.
 */
describe('browser tools through the agent', function () {
  this.timeout(90_000);
  let site: BrowserSite;
  let h: Harness | undefined;

  before(async () => {
    site = await startBrowserSite();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  after(async () => {
    await closeAllBrowsers();
    await site.close();
  });

  it('browser_screenshot reaches the model as a 1280x800 picture after the tool results; the page text and console block as tool text', async () => {
    h = await createHarness();
    h.server.enqueue(call('n1', 'browser_navigate', { url: `${site.origin}/console` }), call('s1', 'browser_screenshot', {}), { text: 'I see the page.' });
    const r = await h.agent.runTurn(h.agent.newSession(), 'open my page and look at it', signal());
    assert.equal(r.reason, 'done');
    const nav = h.bodies()[1].messages.find((m: any) => m.role === 'tool');
    assert.match(nav.content, new RegExp(`^Opened ${site.origin}/console \\(HTTP 200\\)\\nURL: ${site.origin}/console\\nTitle: Console page`));
    assert.match(nav.content, /\n\nConsole errors:\n\[error\] boom-1 /);
    const msgs = h.bodies()[2].messages;
    const at = msgs.findIndex((m: any) => m.role === 'tool' && m.tool_call_id === 's1');
    assert.match(msgs[at].content, new RegExp(`^image attached: screenshot-\\d+\\.png \\(viewport of ${site.origin}/console, 1280x800\\)`));
    assert.ok(!msgs[at].content.includes('Console errors:'), 'the console messages were reported once, with the navigation');
    const picture = msgs[at + 1];
    assert.equal(picture.role, 'user');
    const url: string = picture.content.find((p: any) => p.type === 'image_url').image_url.url;
    assert.match(url, /^data:image\/png;base64,/);
    assert.deepEqual(pngSize(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')), { width: 1280, height: 800 });
  });

  it('a model without vision gets vision_unsupported pointing at browser_snapshot, and no picture', async () => {
    h = await createHarness({ settings: { 'model.supportsImages': false } });
    h.server.enqueue(call('n1', 'browser_navigate', { url: `${site.origin}/` }), call('s1', 'browser_screenshot', {}), { text: 'ok' });
    await h.agent.runTurn(h.agent.newSession(), 'look at the page', signal());
    const msgs = h.bodies()[2].messages;
    const shot = msgs.find((m: any) => m.role === 'tool' && m.tool_call_id === 's1');
    assert.match(shot.content, /^error \(vision_unsupported\): the model gpt-4o does not accept images.*Call browser_snapshot/);
    assert.ok(!h.server.requests.some((q) => q.raw.includes('image_url')));
  });

  it('the model asking for the metadata address gets policy_blocked', async () => {
    h = await createHarness();
    h.server.enqueue(call('n1', 'browser_navigate', { url: 'http://169.254.169.254/latest/meta-data/' }), { text: 'refused' });
    await h.agent.runTurn(h.agent.newSession(), 'read the instance credentials', signal());
    const tool = h.bodies()[1].messages.find((m: any) => m.role === 'tool');
    assert.match(tool.content, /^error \(policy_blocked\): http:\/\/169\.254\.169\.254\/latest\/meta-data\/ was not opened: .*cloud-metadata/);
  });
});
