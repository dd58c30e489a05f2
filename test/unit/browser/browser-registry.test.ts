import assert from 'node:assert/strict';
import { BrowserManager } from '../../../extension/core/browser/browser-manager';
import { createBrowserTools } from '../../../extension/core/tools/browser/index';
import { createBuiltinTools } from '../../../extension/core/tools/index';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import type { ToolContext } from '../../../extension/core/tools/types';
import { browserCtx } from './helpers';

const NAMES = ['browser_navigate', 'browser_click', 'browser_type', 'browser_press', 'browser_scroll', 'browser_snapshot', 'browser_screenshot', 'browser_console'];

/** A context whose approver refuses everything, like a non-interactive `snowpea tools call`, and whose browser cannot start. */
function cliCtx(extra: Partial<ToolContext> = {}): ToolContext & { asked: string[] } {
  const asked: string[] = [];
  const c = browserCtx({ session: `cli-${Math.random()}`, settings: { 'browser.executablePath': '/nonexistent/chromium' } });
  return Object.assign(c, { approver: { approve: async (r: { summary: string }) => (asked.push(r.summary), 'deny' as const) }, asked }, extra);
}

describe('browser tools in the registry', () => {
  it('the built-in list holds the deferred browser group: 8 network tools, in order', () => {
    const tools = createBuiltinTools();
    const browser = tools.filter((t) => t.group === 'browser');
    assert.deepEqual(browser.map((t) => t.name), NAMES);
    const at = tools.findIndex((t) => t.name === NAMES[0]);
    assert.deepEqual(tools.slice(at, at + 8).map((t) => t.name), NAMES);
    for (const t of browser) {
      assert.equal(t.deferred, true, t.name);
      assert.equal(t.permission, 'network', t.name);
    }
    const reg = new ToolRegistry(tools);
    assert.deepEqual(Object.keys((reg.jsonSchemaOf('browser_press') as { properties: object }).properties), ['key', 'hold_ms']);
  });

  it('`snowpea tools call browser_navigate --args \'{"url": "http://169.254.169.254/"}\'` is refused with policy_blocked, with no approval asked and no browser started', async () => {
    const reg = new ToolRegistry(createBuiltinTools());
    for (const url of ['http://169.254.169.254/', 'http://0251.0376.0251.0376/', 'http://[::ffff:a9fe:a9fe]/', 'http://x@169.254.169.254/', 'http://metadata.google.internal/']) {
      const ctx = cliCtx();
      const r = await reg.invoke('browser_navigate', JSON.stringify({ url }), ctx);
      assert.equal(r.ok, false, url);
      assert.equal(r.error?.code, 'policy_blocked', `${url}: ${r.content}`);
      assert.match(r.content, /^error \(policy_blocked\): .* was not opened: .*cloud-metadata/);
      assert.deepEqual(ctx.asked, [], 'a refused url needs no approval');
    }
  });

  it('non-http schemes are refused the same way', async () => {
    const reg = new ToolRegistry(createBuiltinTools());
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'chrome://settings']) {
      const r = await reg.invoke('browser_navigate', JSON.stringify({ url }), cliCtx());
      assert.equal(r.error?.code, 'policy_blocked', url);
      assert.match(r.content, /only http and https urls can be opened/);
    }
  });

  it('M2: approval is per origin, asked inside the run, not per call: a typed loopback url asks nothing; Restricted Mode still refuses', async () => {
    const reg = new ToolRegistry(createBuiltinTools());
    const ctx = cliCtx({ userTexts: () => ['open localhost:5173'] });
    const r = await reg.invoke('browser_navigate', JSON.stringify({ url: 'http://localhost:5173/' }), ctx);
    assert.equal(r.error?.code, 'unavailable', 'it went on to start the (missing) browser');
    assert.deepEqual(ctx.asked, []);
    const untrusted = await reg.invoke('browser_navigate', JSON.stringify({ url: 'http://localhost:5173/' }), cliCtx({ workspaceTrusted: false }));
    assert.equal(untrusted.error?.code, 'policy_blocked');
    assert.match(untrusted.content, /not trusted/);
  });

  it('M2: a declined first visit to a site returns denied naming the full url, before any browser starts', async () => {
    const reg = new ToolRegistry(createBuiltinTools());
    const ctx = cliCtx();
    const url = 'http://127.0.0.1:9/fwd?d=AWS_SECRET%3Dwj4lrXUtnFEMI';
    const r = await reg.invoke('browser_navigate', JSON.stringify({ url }), ctx);
    assert.equal(r.error?.code, 'denied', r.content);
    assert.match(r.content, /the user declined opening http:\/\/127\.0\.0\.1:9\/fwd\?d=AWS_SECRET%3Dwj4lrXUtnFEMI, so it was not opened/);
    assert.equal(ctx.asked.length, 1);
    assert.match(ctx.asked[0], /^open http:\/\/127\.0\.0\.1:9\/fwd\?d=AWS_SECRET%3Dwj4lrXUtnFEMI in the browser \(first visit to http:\/\/127\.0\.0\.1:9 this session/);
  });

  it('M2: a first visit needs no question under --yes or an earlier "always" answer; a workspace autoApprove does not count; "always" is remembered', async () => {
    const reg = new ToolRegistry(createBuiltinTools());
    const url = JSON.stringify({ url: 'http://127.0.0.1:9/' });
    const approvals = (o: { preapproved?: boolean; from?: 'user' | 'workspace'; always?: string[] }) => ({
      always: new Set(o.always ?? []),
      preapproved: o.preapproved ?? false,
      autoApproveFrom: o.from ?? 'user',
    });
    for (const extra of [{ approvals: approvals({ preapproved: true }) }, { approvals: approvals({ always: ['browser_navigate'] }) }]) {
      const ctx = cliCtx(extra);
      assert.equal((await reg.invoke('browser_navigate', url, ctx)).error?.code, 'unavailable', 'went on to start the (missing) browser');
      assert.deepEqual(ctx.asked, []);
    }
    const fromWorkspace = cliCtx({ approvals: approvals({ from: 'workspace' }) });
    fromWorkspace.settings = { ...fromWorkspace.settings, 'approvals.autoApprove': ['network'] };
    assert.equal((await reg.invoke('browser_navigate', url, fromWorkspace)).error?.code, 'denied');
    assert.equal(fromWorkspace.asked.length, 1, 'a workspace autoApprove does not skip the question');
    const mem = approvals({});
    const always = cliCtx({ approvals: mem, approver: { approve: async () => 'allowAlways' as const } });
    assert.equal((await reg.invoke('browser_navigate', url, always)).error?.code, 'unavailable');
    assert.ok(mem.always.has('browser_navigate'), '"always" is remembered for the tool');
  });

  it('tools other than browser_navigate need an open page', async () => {
    const reg = new ToolRegistry(createBuiltinTools());
    for (const [name, args] of [['browser_click', { selector: '#x' }], ['browser_snapshot', {}], ['browser_console', {}], ['browser_press', { key: 'w' }]] as const) {
      const r = await reg.invoke(name, JSON.stringify(args), cliCtx());
      assert.equal(r.error?.code, 'failed', name);
      assert.match(r.content, /no page is open in this session yet; call browser_navigate with a url first/);
    }
  });

  it('a missing browser is reported with how to install one', async () => {
    const m = new BrowserManager({ search: { platform: 'linux', env: { PATH: '/usr/bin' }, homedir: '/home/u', isExecutable: () => false } });
    const reg = new ToolRegistry(createBrowserTools(m));
    const ctx = cliCtx({ approver: { approve: async () => 'allow' } });
    ctx.settings = { ...ctx.settings, 'browser.executablePath': null };
    const r = await reg.invoke('browser_navigate', '{"url":"http://127.0.0.1:9/"}', ctx);
    assert.equal(r.error?.code, 'unavailable');
    assert.match(r.content, /no Chromium, Chrome or Edge was found .* sudo apt-get install chromium.* snowpea\.browser\.executablePath/);
    const wrong = await reg.invoke('browser_navigate', '{"url":"http://127.0.0.1:9/"}', cliCtx({ approver: { approve: async () => 'allow' } }));
    assert.equal(wrong.error?.code, 'unavailable');
    assert.match(wrong.content, /snowpea\.browser\.executablePath is \/nonexistent\/chromium, but no executable file is there/);
    await m.closeAll();
  });
});
