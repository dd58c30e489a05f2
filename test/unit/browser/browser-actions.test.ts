import assert from 'node:assert/strict';
import { STARTING_BROWSER } from '../../../extension/core/tools/browser/common';
import { startBrowserSite, type BrowserSite } from '../../fixtures/browser-site';
import { browserCtx, browserDriver, pngSize, recordingAttachments, recordingConnect, scriptedResolver, type Driver } from './helpers';

/** Real Chromium (Debian's) driven through the tools, against pages served on 127.0.0.1. One browser for the file. */
describe('browser tools in Chromium', function () {
  this.timeout(60_000);
  let site: BrowserSite;
  let d: Driver;
  const contacted: string[] = [];
  let session = 0;
  let sid = 's';
  const ctx = (o: Parameters<typeof browserCtx>[0] = {}) => browserCtx({ session: sid, ...o });

  before(async () => {
    site = await startBrowserSite();
    d = browserDriver({ resolver: scriptedResolver({}), connect: recordingConnect(contacted) }, () => ctx());
  });
  beforeEach(() => {
    sid = `actions-${++session}`;
  });
  after(async () => {
    await d.manager.closeAll();
    await site.close();
  });

  const page = async () => (await d.manager.existing(sid))!.page();

  it('browser_navigate opens a page and returns its url, title and text, through the pinning proxy', async () => {
    const streamed: string[] = [];
    const r = await d.call('browser_navigate', { url: `${site.origin}/` }, { ...ctx(), onOutput: (c) => void streamed.push(c) });
    assert.equal(r.ok, true, r.content);
    assert.deepEqual(streamed, [`${STARTING_BROWSER}\n`], 'the running tool card says the browser is starting');
    const later: string[] = [];
    await d.call('browser_snapshot', {}, { ...ctx(), onOutput: (c) => void later.push(c) });
    await d.call('browser_navigate', { url: `${site.origin}/` }, { ...ctx(), onOutput: (c) => void later.push(c) });
    assert.deepEqual(later, [], 'an open page starts nothing');
    assert.match(r.content, new RegExp(`^Opened ${site.origin}/ \\(HTTP 200\\)\\nURL: ${site.origin}/\\nTitle: Home page\\n\\nWelcome home\\n\\nThis is the test site\\.`));
    assert.ok(!r.content.includes('Console errors:'), 'nothing was logged');
    assert.ok(contacted.includes(`127.0.0.1:${site.port}`), 'the browser reached the site through the proxy');
  });

  it('browser_click clicks buttons and follows links; a missing element is not_found', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/` });
    const clicked = await d.call('browser_click', { selector: '#counter' });
    assert.equal(clicked.content, `Clicked #counter\nURL: ${site.origin}/\nTitle: Home page`);
    await d.call('browser_click', { selector: '#counter' });
    assert.match((await d.call('browser_snapshot', {})).content, /Clicked 2 times/);
    const followed = await d.call('browser_click', { selector: '#next' });
    assert.equal(followed.content, `Clicked #next\nURL: ${site.origin}/second\nTitle: Second page`);
    const missing = await d.call('browser_click', { selector: '#does-not-exist' });
    assert.equal(missing.error?.code, 'not_found');
    assert.match(missing.content, /no element on the page matches #does-not-exist; call browser_snapshot/);
    const bad = await d.call('browser_click', { selector: 'a[href=' });
    assert.equal(bad.error?.code, 'invalid_arguments', bad.content);
    assert.match(bad.content, /the selector is not valid CSS/);
  });

  it('a link that opens a new tab continues there', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/` });
    const r = await d.call('browser_click', { selector: '#popup' });
    assert.equal(r.content, `Clicked #popup\nURL: ${site.origin}/second\nTitle: Second page`);
    assert.match((await d.call('browser_snapshot', {})).content, /The second page/);
  });

  it('browser_type fills a field, and submit sends the form', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/form` });
    const typed = await d.call('browser_type', { selector: '#notes', text: 'two\nlines' });
    assert.equal(typed.content, `Typed 9 character(s) into #notes\nURL: ${site.origin}/form\nTitle: Search form`);
    assert.equal(await (await page()).inputValue('#notes'), 'two\nlines');
    const submitted = await d.call('browser_type', { selector: 'input[name="q"]', text: 'hello world', submit: true });
    assert.equal(submitted.content, `Typed 11 character(s) into input[name="q"] and pressed Enter\nURL: ${site.origin}/search?q=hello+world\nTitle: Results`);
    assert.ok(site.requests.some((r) => r.path === '/search?q=hello+world'));
    assert.match((await d.call('browser_snapshot', {})).content, /Results for hello world/);
  });

  it('browser_press sends keys and combos; hold_ms keeps the key down that long', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/keys` });
    const held = await d.call('browser_press', { key: 'w', hold_ms: 400 });
    assert.equal(held.content, `Held w for 400 ms\nURL: ${site.origin}/keys\nTitle: Keys`);
    assert.equal((await d.call('browser_press', { key: 'Space' })).content.split('\n')[0], 'Pressed Space');
    await d.call('browser_press', { key: 'Control+a' });
    await d.call('browser_press', { key: 'ArrowUp' });
    const events = (await (await page()).evaluate('window.events')) as { type: string; key: string; t: number; ctrl?: boolean }[];
    assert.deepEqual(
      events.map((e) => `${e.type}:${e.key}`),
      ['down:w', 'up:w', 'down: ', 'up: ', 'down:Control', 'down:a', 'up:a', 'up:Control', 'down:ArrowUp', 'up:ArrowUp'],
    );
    const [down, up] = events;
    assert.ok(up.t - down.t >= 400 - 20, `w was released ${up.t - down.t} ms after it went down; hold_ms was 400`);
    assert.equal(events.find((e) => e.key === 'a')?.ctrl, true, 'a was pressed with Control held');
    const bad = await d.call('browser_press', { key: 'NoSuchKey' });
    assert.equal(bad.error?.code, 'invalid_arguments');
  });

  it('browser_scroll moves the page and reports where it is', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/tall` });
    const down = await d.call('browser_scroll', {});
    assert.match(down.content, /^Scrolled down\. Now at y=720 of \d+ px \(viewport 800 px\), \d+% down\.$/);
    assert.match((await d.call('browser_scroll', { direction: 'up', pixels: 200 })).content, /Now at y=520 /);
    assert.match((await d.call('browser_scroll', { direction: 'bottom' })).content, /at the bottom\.$/);
    assert.match((await d.call('browser_scroll', { direction: 'top' })).content, /Now at y=0 .*at the top\.$/);
  });

  it('browser_snapshot returns url, title, text, elements with selectors and the scroll position', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/` });
    const r = await d.call('browser_snapshot', {});
    assert.match(r.content, new RegExp(`^URL: ${site.origin}/\\nTitle: Home page\\n\\nWelcome home`));
    assert.match(r.content, /- a #next "Go to the second page"/);
    assert.match(r.content, /- button #counter "Click me"/);
    assert.match(r.content, /\n\nScroll: y=0 of 800 px \(viewport 800 px\)$/);
  });

  it('browser_screenshot attaches a 1280x800 PNG of the viewport, the full page or one element', async () => {
    const screens = recordingAttachments();
    const c = ctx({ attachments: screens.attachments });
    await d.call('browser_navigate', { url: `${site.origin}/tall` }, c);
    const shot = await d.call('browser_screenshot', {}, c);
    assert.equal(shot.ok, true, shot.content);
    assert.match(shot.content, new RegExp(`^image attached: screenshot-\\d+\\.png \\(viewport of ${site.origin}/tall, 1280x800\\)$`));
    assert.deepEqual(pngSize(screens.shots[0]), { width: 1280, height: 800 });
    assert.deepEqual(shot.images, [screens.refs[0]]);
    assert.equal(screens.refs[0].mime, 'image/png');
    await d.call('browser_screenshot', { full_page: true }, c);
    const full = pngSize(screens.shots[1]);
    assert.equal(full.width, 1280);
    assert.ok(full.height > 4000, `the full page is ${full.height} px tall`);
    await d.call('browser_navigate', { url: `${site.origin}/` }, c);
    await d.call('browser_screenshot', { selector: '#counter' }, c);
    const el = pngSize(screens.shots[2]);
    assert.ok(el.width < 300 && el.height < 100, `the button alone is ${el.width}x${el.height}`);
  });

  it('browser_screenshot on a model without vision points at browser_snapshot', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/` });
    const r = await d.call('browser_screenshot', {}, ctx({ attachments: recordingAttachments(false).attachments }));
    assert.equal(r.error?.code, 'vision_unsupported');
    assert.match(r.content, /does not accept images.*Call browser_snapshot/);
  });

  it('console errors, warnings and exceptions end the next result once; browser_console reports the rest', async () => {
    const opened = await d.call('browser_navigate', { url: `${site.origin}/console` });
    const block = opened.content.slice(opened.content.indexOf('\n\nConsole errors:\n'));
    assert.match(block, /^\n\nConsole errors:\n\[error\] boom-1 \(http:\/\/127\.0\.0\.1:\d+\/console:\d+\)\n\[warning\] careful-1 .*\n\[exception\] Error: uncaught-1/);
    assert.ok(!block.includes('just info'), 'console.log is not an error');
    const next = await d.call('browser_snapshot', {});
    assert.ok(!next.content.includes('Console errors:'), 'each message is reported once');
    const clicked = await d.call('browser_click', { selector: '#again' });
    assert.match(clicked.content, /\n\nConsole errors:\n\[error\] clicked error /);
    assert.equal((await d.call('browser_console', {})).content, `No console errors, warnings or uncaught exceptions since the last report (page: ${site.origin}/console).`);
    // The tool's own listeners were added when the page opened, so they have the exception once this one does.
    const late = (await page()).waitForEvent('pageerror');
    await (await page()).evaluate(`console.warn('late warning'); setTimeout(() => { throw new Error('late exception'); })`);
    await late;
    const report = await d.call('browser_console', {});
    assert.match(report.content, /^Console errors, warnings and exceptions \(page: .*\/console\):\n\[warning\] late warning.*\n\[exception\] Error: late exception/);
    assert.ok(!(await d.call('browser_snapshot', {})).content.includes('late warning'));
  });

  it('a redirect chain lands on its last page', async () => {
    const r = await d.call('browser_navigate', { url: `${site.origin}/redirect/3` });
    assert.match(r.content, new RegExp(`^Opened ${site.origin}/redirect/3 \\(HTTP 200\\)\\nURL: ${site.origin}/landed\\nTitle: Landed`));
    const paths = site.requests.map((x) => x.path);
    const at = paths.lastIndexOf('/redirect/3');
    assert.deepEqual(paths.slice(at, at + 4), ['/redirect/3', '/redirect/2', '/redirect/1', '/landed']);
  });

  it('each session has its own fresh profile and page; closeSession closes it', async () => {
    const a = ctx({ session: `${sid}-a` });
    const b = ctx({ session: `${sid}-b` });
    assert.match((await d.call('browser_navigate', { url: `${site.origin}/storage` }, a)).content, /stored=null/);
    assert.match((await d.call('browser_navigate', { url: `${site.origin}/storage` }, a)).content, /stored=set-before/);
    assert.match((await d.call('browser_navigate', { url: `${site.origin}/storage` }, b)).content, /stored=null/, 'another session shares nothing');
    await d.manager.closeSession(`${sid}-a`);
    const after = await d.call('browser_snapshot', {}, a);
    assert.equal(after.error?.code, 'failed');
    assert.match(after.content, /no page is open in this session yet; call browser_navigate/);
    assert.match((await d.call('browser_navigate', { url: `${site.origin}/storage` }, a)).content, /stored=null/, 'a reopened session starts fresh');
  });
});
