import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHROMIUM_ARGS } from '../../../extension/core/browser/launcher';
import { startBrowserSite, type BrowserSite } from '../../fixtures/browser-site';
import { browserCtx, browserDriver, pngSize, recordingAttachments, recordingConnect, scriptedResolver, CHROMIUM, type Driver } from './helpers';

/** Starts Chromium the way a user would for `browser.cdpUrl`, and resolves with its CDP http endpoint. */
function startCdpChromium(profile: string): Promise<{ proc: ChildProcess; url: string }> {
  const root = process.getuid?.() === 0 ? ['--no-sandbox', '--disable-gpu'] : [];
  const proc = spawn(CHROMIUM, ['--headless', '--remote-debugging-port=0', `--user-data-dir=${profile}`, ...CHROMIUM_ARGS, ...root, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (c: string) => {
      err += c;
      const m = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(err);
      if (m) resolve({ proc, url: `http://127.0.0.1:${m[1]}` });
    });
    proc.once('exit', (code) => reject(new Error(`chromium exited (${code}) before listening: ${err}`)));
  });
}

describe('browser tools over browser.cdpUrl (an already running browser)', function () {
  this.timeout(90_000);
  let site: BrowserSite;
  let d: Driver;
  let chromium: { proc: ChildProcess; url: string };
  let profile: string;
  const contacted: string[] = [];
  const screens = recordingAttachments();
  const ctx = () => browserCtx({ session: 'cdp', settings: { 'browser.cdpUrl': chromium.url, 'browser.executablePath': '/nonexistent/so-nothing-is-launched' }, attachments: screens.attachments });

  before(async () => {
    site = await startBrowserSite();
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-cdp-profile-'));
    chromium = await startCdpChromium(profile);
    d = browserDriver({ resolver: scriptedResolver({}), connect: recordingConnect(contacted) }, ctx);
  });
  after(async () => {
    await d.manager.closeAll();
    if (chromium.proc.exitCode === null) {
      await new Promise((r) => {
        chromium.proc.once('exit', r);
        chromium.proc.kill();
      });
    }
    await site.close();
    // Chromium's helper processes may still be flushing the profile after the main one exits:
    // retry, and leave a stray temp folder rather than fail the suite over tidying up.
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (e) {
      console.warn(`    left ${profile}: ${(e as Error).message}`);
    }
  });

  it('every tool works on the connected browser, through the pinning proxy', async () => {
    const opened = await d.call('browser_navigate', { url: `${site.origin}/console` });
    assert.equal(opened.ok, true, opened.content);
    assert.match(opened.content, /Title: Console page[\s\S]*Console errors:\n\[error\] boom-1/);
    assert.ok(contacted.includes(`127.0.0.1:${site.port}`), 'the connected browser went through the proxy');
    assert.match((await d.call('browser_click', { selector: '#again' })).content, /Console errors:\n\[error\] clicked error/);
    assert.match((await d.call('browser_console', {})).content, /^No console errors/);
    const shot = await d.call('browser_screenshot', {});
    assert.equal(shot.ok, true, shot.content);
    assert.deepEqual(pngSize(screens.shots[0]), { width: 1280, height: 800 });
    await d.call('browser_navigate', { url: `${site.origin}/keys` });
    assert.match((await d.call('browser_press', { key: 'w', hold_ms: 50 })).content, /^Held w for 50 ms/);
    assert.match((await d.call('browser_snapshot', {})).content, /down:w up:w/);
    await d.call('browser_navigate', { url: `${site.origin}/form` });
    assert.match((await d.call('browser_type', { selector: '#q', text: 'cdp', submit: true })).content, /search\?q=cdp/);
    await d.call('browser_navigate', { url: `${site.origin}/tall` });
    assert.match((await d.call('browser_scroll', {})).content, /^Scrolled down\. Now at y=720 /);
  });

  it('the URL policy holds there too', async () => {
    await d.call('browser_navigate', { url: `${site.origin}/` });
    const r = await d.call('browser_click', { selector: '#meta-redirect' });
    assert.equal(r.error?.code, 'policy_blocked');
    assert.ok(contacted.every((c) => c.startsWith('127.0.0.1:')));
  });

  it('closing the session leaves the user\'s browser running', async () => {
    await d.manager.closeSession('cdp');
    assert.equal(chromium.proc.exitCode, null);
    assert.match((await d.call('browser_navigate', { url: `${site.origin}/second` })).content, /Title: Second page/);
  });
});
