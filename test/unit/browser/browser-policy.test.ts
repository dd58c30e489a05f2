import assert from 'node:assert/strict';
import { startBrowserSite, type BrowserSite } from '../../fixtures/browser-site';
import { browserCtx, browserDriver, recordingConnect, scriptedResolver, type Driver } from './helpers';

/**
 * The URL policy in real Chromium: every document request is checked again (clicks, redirects,
 * script navigations, popups, frames), and the browser reaches only addresses that were checked.
 * Refused addresses are never contacted: the connector the proxy uses records every connection.
 */
describe('browser URL policy in Chromium', function () {
  this.timeout(60_000);
  let site: BrowserSite;
  let d: Driver;
  const contacted: string[] = [];
  let resolver: ReturnType<typeof scriptedResolver>;
  let n = 0;
  let sid = 'p';
  const ctx = (o: Parameters<typeof browserCtx>[0] = {}) => browserCtx({ session: sid, ...o });

  before(async () => {
    site = await startBrowserSite();
    resolver = scriptedResolver({
      'app.test': [['127.0.0.1']],
      // Checked twice as loopback (the tool, then the route), then answers a metadata address when the proxy connects.
      'rebind.test': [['127.0.0.1'], ['127.0.0.1'], ['169.254.169.254']],
    });
    d = browserDriver({ resolver, connect: recordingConnect(contacted) }, () => ctx());
  });
  beforeEach(() => {
    sid = `policy-${++n}`;
  });
  afterEach(() => {
    assert.ok(
      contacted.every((c) => c.startsWith('127.0.0.1:')),
      `only loopback was contacted: ${contacted.join(', ')}`,
    );
  });
  after(async () => {
    await d.manager.closeAll();
    await site.close();
  });

  const home = `(page is at|The page is at) ${'http://127.0.0.1:\\d+/'}`;

  it('browser_navigate to a metadata address is refused before any browser starts', async () => {
    const r = await d.call('browser_navigate', { url: 'http://169.254.169.254/latest/meta-data/' });
    assert.equal(r.error?.code, 'policy_blocked');
    assert.equal(r.content, 'error (policy_blocked): http://169.254.169.254/latest/meta-data/ was not opened: 169.254.169.254 is link-local 169.254.0.0/16, where cloud-metadata services live; cloud-metadata addresses are never opened.');
    assert.equal(d.manager.has(sid), false, 'no browser session was opened');
  });

  it('a click on a link to a metadata address is refused and the page stays where it was', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/` });
    const r = await d.call('browser_click', { selector: '#meta' });
    assert.equal(r.error?.code, 'policy_blocked');
    assert.match(r.content, new RegExp(`^error \\(policy_blocked\\): Clicking #meta led to http://169\\.254\\.169\\.254/latest/meta-data/, which was not opened: .*cloud-metadata.*\\. The page is at ${site.origin}/\\.`));
    assert.match((await d.call('browser_snapshot', {})).content, /Welcome home/);
  });

  it('a redirect from an allowed page to a metadata address is refused (clicked or opened)', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/` });
    const clicked = await d.call('browser_click', { selector: '#meta-redirect' });
    assert.equal(clicked.error?.code, 'policy_blocked');
    assert.match(clicked.content, /led to http:\/\/169\.254\.169\.254\/latest\/meta-data\/, which was not opened: .*cloud-metadata/);
    assert.match(clicked.content, new RegExp(home));
    const opened = await d.call('browser_navigate', { url: `${site.origin}/redirect-meta` });
    assert.equal(opened.error?.code, 'policy_blocked');
    assert.match(opened.content, new RegExp(`^error \\(policy_blocked\\): Opening ${site.origin}/redirect-meta led to http://169\\.254\\.169\\.254/latest/meta-data/`));
  });

  it('a script navigation to a hex-spelled metadata address is refused', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/script-meta` });
    const r = await d.call('browser_click', { selector: '#go' });
    assert.equal(r.error?.code, 'policy_blocked');
    assert.match(r.content, /led to http:\/\/169\.254\.169\.254\/, which was not opened/);
    assert.match(r.content, new RegExp(`The page is at ${site.origin}/script-meta\\.`));
  });

  it('a new tab opened on a metadata address is refused and closed', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/` });
    const r = await d.call('browser_click', { selector: '#meta-popup' });
    assert.equal(r.error?.code, 'policy_blocked');
    assert.match(r.content, new RegExp(`The page is at ${site.origin}/\\.`));
  });

  it('a frame pointing at a metadata address is kept out, and the result says so', async () => {
    const r = await d.call('browser_navigate', { url: `${site.origin}/frame-meta` });
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /Outer page\nA frame of this page was not loaded \(policy_blocked\): http:\/\/169\.254\.169\.254\/latest\/meta-data\/: .*cloud-metadata/);
  });

  it('"deny" refuses the loopback site; "typed-only" opens it only once the user typed its address', async () => {
    const before = site.requests.length;
    const denied = await d.call('browser_navigate', { url: `${site.origin}/` }, ctx({ settings: { 'browser.privateNetwork': 'deny' } }));
    assert.equal(denied.error?.code, 'policy_blocked');
    assert.match(denied.content, /browser\.privateNetwork is "deny"/);
    const untyped = await d.call('browser_navigate', { url: `${site.origin}/` }, ctx({ settings: { 'browser.privateNetwork': 'typed-only' }, userTexts: ['open my app'] }));
    assert.equal(untyped.error?.code, 'policy_blocked');
    assert.match(untyped.content, /Ask the user to type the address/);
    assert.equal(site.requests.length, before, 'the site was not reached');
    const typed = ctx({ settings: { 'browser.privateNetwork': 'typed-only' }, userTexts: [`open 127.0.0.1:${site.port} please`] });
    const opened = await d.call('browser_navigate', { url: `${site.origin}/` }, typed);
    assert.equal(opened.ok, true, opened.content);
    // The same loopback server under a name the user did not type: the click is refused.
    await (await (await d.manager.existing(sid))!.page()).evaluate(`document.body.insertAdjacentHTML('beforeend', '<a id="other" href="http://app.test:${site.port}/second">x</a>')`);
    const other = await d.call('browser_click', { selector: '#other' }, typed);
    assert.equal(other.error?.code, 'policy_blocked');
    assert.match(other.content, new RegExp(`app\\.test resolves to 127\\.0\\.0\\.1.*\\(app\\.test:${site.port}\\)`));
  });

  it('a hostname is resolved for the check and reached at the address that was checked', async () => {
    const r = await d.call('browser_navigate', { url: `http://app.test:${site.port}/second` });
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /Title: Second page/);
    assert.equal(site.requests.at(-1)?.host, `app.test:${site.port}`);
  });

  it('DNS rebinding: a name that passes the checks but answers a metadata address at connect time is refused, and that address is never contacted', async () => {
    const seen = site.requests.length;
    const r = await d.call('browser_navigate', { url: `http://rebind.test:${site.port}/second` });
    assert.equal(r.error?.code, 'policy_blocked');
    assert.match(r.content, /rebind\.test resolves to 169\.254\.169\.254, which is link-local/);
    assert.equal(resolver.asked.filter((h) => h === 'rebind.test').length, 3, 'the tool, the route and the proxy each resolved it once');
    assert.equal(site.requests.length, seen, 'nothing was fetched for the rebound name');
  });
});
