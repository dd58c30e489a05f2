import assert from 'node:assert/strict';
import { findBrowserExecutable, type BrowserSearchEnv } from '../../../extension/core/browser/find-browser';

const env = (platform: NodeJS.Platform, present: string[], vars: NodeJS.ProcessEnv = {}): BrowserSearchEnv => ({
  platform,
  env: vars,
  homedir: '/home/u',
  isExecutable: (p) => present.includes(p),
});

describe('browser executable discovery', () => {
  it('uses browser.executablePath when it points at an executable, and says so when it does not', () => {
    assert.deepEqual(findBrowserExecutable('/opt/my/chrome', env('linux', ['/opt/my/chrome'])), { ok: true, path: '/opt/my/chrome' });
    const r = findBrowserExecutable('/nope/chrome', env('linux', ['/usr/bin/chromium']));
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : '', /snowpea\.browser\.executablePath is \/nope\/chrome, but no executable file is there/);
  });

  it('looks on PATH first, then in the usual install locations', () => {
    assert.deepEqual(findBrowserExecutable(null, env('linux', ['/usr/bin/chromium', '/home/u/bin/google-chrome'], { PATH: '/home/u/bin:/usr/local/bin' })), { ok: true, path: '/home/u/bin/google-chrome' });
    assert.deepEqual(findBrowserExecutable(null, env('linux', ['/opt/google/chrome/chrome'], { PATH: '/usr/bin' })), { ok: true, path: '/opt/google/chrome/chrome' });
    assert.deepEqual(findBrowserExecutable(null, env('darwin', ['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'])), { ok: true, path: '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge' });
    const win = findBrowserExecutable(null, env('win32', ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'], { PROGRAMFILES: 'C:\\Program Files' }));
    assert.deepEqual(win, { ok: true, path: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' });
  });

  it('explains how to install a browser when none is found', () => {
    const r = findBrowserExecutable(null, env('linux', [], { PATH: '/usr/bin' }));
    assert.equal(r.ok, false);
    const msg = !r.ok ? r.message : '';
    assert.match(msg, /no Chromium, Chrome or Edge was found/);
    assert.match(msg, /sudo apt-get install chromium/);
    assert.match(msg, /snowpea\.browser\.executablePath/);
    const mac = findBrowserExecutable(null, env('darwin', []));
    assert.match(!mac.ok ? mac.message : '', /install Google Chrome, Chromium or Microsoft Edge/);
  });
});
