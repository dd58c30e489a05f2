import assert from 'node:assert/strict';
import { closeAllBrowsers, closeBrowserOnRelease, sharedBrowserManager } from '../../../extension/core/browser/index';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { startBrowserSite, type BrowserSite } from '../../fixtures/browser-site';
import { recordingLogger } from '../../fixtures/recording-logger';
import { pngSize } from './helpers';

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });
const signal = () => new AbortController().signal;
const isChild = (body: any) => /You have \d+ tool rounds for this task\./.test(body.messages[0].content);

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

  it("a subagent's page closes when it finishes, the chat's session's page when it is released: the manager keeps nothing for either", async () => {
    h = await createHarness({ onSessionReleased: closeBrowserOnRelease(recordingLogger()) });
    const manager = sharedBrowserManager();
    const s = h.agent.newSession();
    let childHeld: boolean | undefined;
    h.server.setResponder((body) => {
      const results = body.messages.filter((m: any) => m.role === 'tool').length;
      if (isChild(body)) {
        if (results === 0) return call('cn', 'browser_navigate', { url: `${site.origin}/` });
        childHeld = manager.holds(h!.store.childSessions(s.id)[0].id);
        return { text: 'the child saw the page' };
      }
      if (results === 0) return call('pn', 'browser_navigate', { url: `${site.origin}/` });
      if (results === 1) return call('d1', 'delegate_task', { task: 'Open the page.', agent: 'general', max_rounds: 3 });
      return { text: 'done' };
    });
    assert.equal((await h.agent.runTurn(s, 'open the page, then have a subagent open it', signal())).reason, 'done');
    const [child] = h.store.childSessions(s.id);
    assert.ok(child, 'the subagent ran');
    assert.equal(childHeld, true, 'while it ran, the subagent had its own page');
    assert.ok(h.store.getMessages(child.id).some((m) => m.role === 'tool' && String(m.content).startsWith('Opened ')), 'the subagent opened the page');
    assert.equal(manager.holds(child.id), false, "the finished subagent's page, context, proxy and consent are gone");
    assert.equal(manager.holds(s.id), true, "the chat's session keeps its page while it is current");
    h.agent.releaseSession(s.id);
    assert.equal(manager.holds(s.id), false, "the released session's page, context, proxy and consent are gone");
  });
});
