import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Adds an <img> in the page and reports whether it loaded and which CSP violations it caused. */
function loadImage(src: string) {
  const g = globalThis as any;
  return new Promise<{ loaded: boolean; violations: string[] }>((resolve) => {
    const violations: string[] = [];
    g.document.addEventListener('securitypolicyviolation', (e: any) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    const img = g.document.createElement('img');
    img.onload = () => resolve({ loaded: img.naturalWidth > 0, violations });
    img.onerror = () => setTimeout(() => resolve({ loaded: false, violations }), 0);
    img.src = src;
    g.document.body.appendChild(img);
  });
}

describe('webview: Content Security Policy', function () {
  const env = useWebviewEnv();

  it('blocks a remote image and never requests it', async () => {
    const chat = await env.open();
    const url = `${env.remote.origin}/remote.png`;
    const result = await chat.page.evaluate(loadImage, url);
    assert.equal(result.loaded, false);
    assert.deepEqual(result.violations, [`img-src ${url}`]);
    assert.deepEqual(env.remote.requests, [], 'the remote server must not see a request');
  });

  it('allows data: images', async () => {
    const chat = await env.open();
    assert.deepEqual(await chat.page.evaluate(loadImage, PIXEL), { loaded: true, violations: [] });
  });

  it('blocks scripts without the nonce', async () => {
    const chat = await env.open();
    const violations = await chat.page.evaluate(async () => {
      const g = globalThis as any;
      const seen: string[] = [];
      g.document.addEventListener('securitypolicyviolation', (e: any) => seen.push(e.effectiveDirective));
      const s = g.document.createElement('script');
      s.textContent = 'globalThis.__injected = true';
      g.document.body.appendChild(s);
      await new Promise((r) => setTimeout(r, 0));
      return { seen, injected: g.__injected === true };
    });
    assert.equal(violations.injected, false);
    assert.deepEqual(violations.seen, ['script-src-elem']);
  });
});
