import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

/**
 * L7: markup that loads by itself is removed, even when it points inside the CSP's own source (in
 * code-server the webview's origin also proxies local ports, so the CSP alone would let it load).
 */
describe('webview: Markdown keeps nothing that loads by itself (L7)', function () {
  const env = useWebviewEnv();

  it('L7: <input type=image>, <table background>, <svg><image href>, <math>, <picture>, poster and non-link href are stripped, and nothing is requested', async () => {
    const chat = await env.open();
    await chat.init();
    const requested: string[] = [];
    chat.page.on('request', (r) => {
      if (r.url().includes('leak=')) requested.push(r.url());
    });
    // The webview's own origin: what the CSP allows (cspSource), as in code-server.
    const self = `${env.server.origin}/x`;
    const evil = [
      'Start of the reply.',
      `<input type="image" src="${self}?leak=input">`,
      `<input type="text" value="typed">`,
      `<table background="${self}?leak=table"><tr><td background="${self}?leak=td">cell</td></tr></table>`,
      `<svg><image href="${self}?leak=svgimage"></image><use xlink:href="${self}?leak=use#a"></use></svg>`,
      `<math><mi xlink:href="${self}?leak=math">x</mi></math>`,
      `<picture><source srcset="${self}?leak=picture"><img src="${self}?leak=pictureimg"></picture>`,
      `<video poster="${self}?leak=poster"></video><div poster="${self}?leak=divposter">poster</div>`,
      `<area href="${self}?leak=area"><div href="${self}?leak=divhref">div</div><link rel="prefetch" href="${self}?leak=link">`,
      `<img src="${self}?leak=img">`,
      '- [x] done task',
      '- [ ] open task',
      `[a link](${self}?leak=link-not-clicked)`,
      'End of the reply.',
    ].join('\n\n');
    await chat.events({ type: 'text.delta', text: evil }, { type: 'turn.end', reason: 'done', rounds: 1 });
    const md = chat.page.locator('[data-kind="assistant"] .markdown');
    await md.getByText('End of the reply.').waitFor();
    for (const sel of ['input', 'svg', 'math', 'picture', 'image', 'video', 'source', 'link', '[background]', '[poster]', '[xlink\\:href]']) {
      assert.equal(await md.locator(sel).count(), 0, `${sel} was removed`);
    }
    const hrefs = await md.locator('[href]').evaluateAll((els) => els.map((e) => e.tagName));
    assert.deepEqual(hrefs, ['A'], 'only the link keeps an href');
    const srcs = await md.locator('[src]').evaluateAll((els) => els.map((e) => e.getAttribute('src')));
    assert.deepEqual(srcs, [], 'no element keeps a non-data source');
    assert.match((await md.textContent()) ?? '', /☑ done task[\s\S]*☐ open task/, 'task lists keep their boxes as characters');
    // Let the page finish whatever it would load, then check nothing was asked for.
    await chat.page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    assert.deepEqual(requested, []);
    assert.deepEqual(env.remote.requests, []);
  });
});
