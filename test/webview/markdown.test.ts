import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

describe('webview: Markdown is sanitized', function () {
  const env = useWebviewEnv();

  it('sanitizes Markdown: no scripts, no handlers, no remote images', async () => {
    const chat = await env.open();
    await chat.init();
    const evil = [
      'Hi <script>globalThis.__pwned = 1</script>',
      '<img src="x" onerror="globalThis.__pwned = 2">',
      `![tracker](${env.remote.origin}/md.png)`,
      `<img src="${env.remote.origin}/raw.png">`,
      '[link](javascript:globalThis.__pwned=3)',
      '![ok](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==)',
    ].join('\n\n');
    await chat.events({ type: 'text.delta', text: evil }, { type: 'turn.end', reason: 'done', rounds: 1 });
    const md = chat.page.locator('[data-kind="assistant"] .markdown');
    await md.locator('.md-blocked-image').waitFor();
    assert.equal(await md.locator('script').count(), 0);
    assert.equal(await md.locator('[onerror]').count(), 0);
    const srcs = await md.locator('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src') ?? ''));
    assert.ok(srcs.every((s) => s === '' || s.startsWith('data:image/png')), `only data: images: ${srcs.join(', ')}`);
    assert.ok(srcs.some((s) => s.startsWith('data:image/png')), 'a data: image is kept');
    assert.equal(await md.locator('a[href^="javascript:"]').count(), 0);
    await md.getByText('link').click();
    assert.equal(await chat.page.evaluate(() => (globalThis as any).__pwned), undefined);
    assert.deepEqual(env.remote.requests, []);
  });
});
