import assert from 'node:assert/strict';
import { contentSecurityPolicy, createNonce, renderWebviewHtml } from '../../extension/host/view/webview-html';

const base = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://x.vscode-cdn.net/dist/webview.js',
  styleUri: 'https://x.vscode-cdn.net/dist/webview.css',
  codiconsUri: 'https://x.vscode-cdn.net/dist/codicons/codicon.css',
  title: 'Snowpea',
};

describe('webview HTML (renderWebviewHtml)', () => {
  it('makes fresh 128-bit nonces', () => {
    const a = createNonce();
    assert.match(a, /^[0-9a-f]{32}$/);
    assert.notEqual(a, createNonce());
  });

  it('puts the strict CSP in a meta tag and the nonce on the one script', () => {
    const nonce = createNonce();
    const html = renderWebviewHtml({ ...base, nonce });
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    assert.equal(csp, contentSecurityPolicy(base.cspSource, nonce));
    const directives = Object.fromEntries((csp ?? '').split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    assert.equal(directives['default-src'], "'none'");
    assert.equal(directives['img-src'], `${base.cspSource} data:`);
    assert.equal(directives['style-src'], base.cspSource, 'no unsafe-inline styles');
    assert.equal(directives['font-src'], base.cspSource);
    assert.equal(directives['script-src'], `'nonce-${nonce}'`);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.deepEqual(scripts, [` nonce="${nonce}" src="${base.scriptUri}"`]);
    assert.ok(html.includes(`<link rel="stylesheet" href="${base.styleUri}">`));
    assert.ok(html.includes(`<link rel="stylesheet" href="${base.codiconsUri}">`));
    assert.ok(!/<style/.test(html), 'no inline styles');
  });

  it('escapes the title and URIs', () => {
    const html = renderWebviewHtml({ ...base, nonce: createNonce(), title: '</title><script>x</script>', styleUri: 'a"onload="x' });
    assert.ok(html.includes('<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>'));
    assert.ok(html.includes('href="a&quot;onload=&quot;x"'));
  });

  it('refuses a bad nonce or cspSource instead of weakening the policy', () => {
    assert.throws(() => renderWebviewHtml({ ...base, nonce: "abc' 'unsafe-inline" }), /nonce/);
    assert.throws(() => renderWebviewHtml({ ...base, nonce: 'short' }), /nonce/);
    assert.throws(() => renderWebviewHtml({ ...base, nonce: createNonce(), cspSource: "x; script-src 'unsafe-eval'" }), /cspSource/);
    assert.throws(() => renderWebviewHtml({ ...base, nonce: createNonce(), cspSource: "'self' 'unsafe-inline'" }), /cspSource/, 'only the self keyword');
    // code-server's cspSource is a list with a quoted keyword.
    const html = renderWebviewHtml({ ...base, nonce: createNonce(), cspSource: "'self' https://*.vscode-cdn.net" });
    assert.match(html, /img-src 'self' https:\/\/\*\.vscode-cdn\.net data:/);
  });
});
