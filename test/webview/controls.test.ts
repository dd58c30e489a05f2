import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

describe('webview: chips, meter, banners, retry, code blocks and the header', function () {
  const env = useWebviewEnv();

  it('shows a chip when tools load and lists the session tools from the composer', async () => {
    const chat = await env.open();
    await chat.init({ loadedTools: ['read_file', 'tool_search'] });
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'commit it' }, { type: 'tools.loaded', tools: ['git_diff', 'git_commit'] });
    const chip = chat.items('tools.loaded');
    await chip.waitFor();
    assert.equal(await chip.innerText(), 'loaded git_diff, git_commit');
    const button = chat.page.getByRole('button', { name: '4 tools loaded' });
    await button.click();
    const panel = chat.page.locator('[data-kind="loaded-tools"]');
    await panel.waitFor();
    assert.deepEqual(await panel.locator('.chip').allInnerTexts(), ['read_file', 'tool_search', 'git_diff', 'git_commit']);
    await button.click();
    await panel.waitFor({ state: 'detached' });
  });

  it('meters each round from usage and the host meter: tokens, cache, what pruning and deferral saved', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'go' }, { type: 'usage', round: 1, usage: { promptTokens: 8200, completionTokens: 90, cachedTokens: 0 } });
    const meter = chat.page.locator('[data-kind="meter"]');
    await meter.waitFor();
    assert.equal(await meter.innerText(), '8.2k in · 0% cached');
    await chat.events({ type: 'usage', round: 2, usage: { promptTokens: 12_400, completionTokens: 40, cachedTokens: 9_920 } });
    await chat.host({ type: 'meter', sessionId: 's1', round: 2, promptTokens: 12_400, cachedTokens: 9_920, contextWindow: 128_000, prunedChars: 48_210, prunedResults: 3, deferredTools: 18, deferredTokens: 5_300 });
    await chat.page.locator('[data-kind="meter"]', { hasText: 'pruned' }).waitFor();
    assert.equal(await meter.innerText(), '10% of 128k · 80% cached · 48k chars pruned · 18 tools deferred');
    assert.match((await meter.getAttribute('title')) ?? '', /pruning saved 48,210 chars in 3 older tool results; 18 deferred tools not sent \(~5\.3k tokens of schemas\)/);
    await meter.click();
    const rounds = chat.page.locator('[data-kind="meter-rounds"] li');
    assert.deepEqual(await rounds.allInnerTexts(), ['R2 10% of 128k · 80% cached · 48k chars pruned · 18 tools deferred', 'R1 8.2k in · 0% cached']);
  });

  it('shows the estimated cost of the round and the session, and what sending everything would have cost', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'go' }, { type: 'usage', round: 3, usage: { promptTokens: 20_000, completionTokens: 500, cachedTokens: 15_000 } });
    const cost = { cached: 0.0015, uncached: 0.002, output: 0.0008, round: 0.0043, session: 0.0412, sessionEverything: 0.1203 };
    await chat.host({ type: 'meter', sessionId: 's1', round: 3, promptTokens: 20_000, cachedTokens: 15_000, cost });
    const meter = chat.page.locator('[data-kind="meter"]', { hasText: '$' });
    await meter.waitFor();
    // The cost leads (issue 29: at a narrow width it is what stays visible).
    // textContent: the cost and the rest are two boxes (the cost gives way last), which innerText puts on two lines.
    assert.equal(await meter.textContent(), '~$0.0043 (session $0.041) · 20k in · 75% cached');
    assert.match((await meter.getAttribute('title')) ?? '', /estimated cost \$0\.0043 this round \(cached input \$0\.0015, uncached input \$0\.0020, output \$0\.0008\), \$0\.041 this session; sending everything at the same prices, caching included, would have cost \$0\.120 \(saved \$0\.079\)/);
  });

  it('shows the loop banner, which can stop the turn or be dismissed', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'x' }, { type: 'loop.suspected', tool: 'grep', count: 5 });
    const banner = chat.page.locator('[data-kind="loop"]');
    assert.match(await banner.innerText(), /grep was called 5 times with the same arguments/);
    await banner.getByRole('button', { name: 'Stop the turn' }).click();
    await chat.waitForPosted('stop');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
  });

  it('offers Retry on a provider error, posts `retry`, and does not repeat the prompt in the transcript', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.fill('explain the build');
    await chat.page.keyboard.press('Enter');
    await chat.events(
      { type: 'turn.start', turn: 1, prompt: 'explain the build' },
      { type: 'error', message: 'The endpoint returned 503 Service Unavailable', kind: 'server' },
    );
    const error = chat.items('error');
    await error.waitFor();
    assert.equal(await error.getByRole('button', { name: 'Retry' }).count(), 0, 'not while the turn still runs');
    await chat.events({ type: 'turn.end', reason: 'error', rounds: 1 });
    await error.getByRole('button', { name: 'Retry' }).click();
    assert.deepEqual((await chat.waitForPosted('retry'))[0], { type: 'retry' });
    await error.getByRole('button', { name: 'Retry' }).waitFor({ state: 'detached' });

    await chat.events({ type: 'turn.start', turn: 2, prompt: 'explain the build' }, { type: 'text.delta', text: 'It uses esbuild.' });
    await chat.stopButton.waitFor();
    await chat.items('assistant').waitFor();
    assert.equal(await chat.items('user').count(), 1, 'the retried prompt is shown once');
    assert.equal((await chat.posted()).filter((m) => m.type === 'retry').length, 1);
  });

  it('copies a code block and inserts it at the cursor', async () => {
    const chat = await env.open();
    await chat.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
    await chat.init();
    await chat.events({ type: 'text.delta', text: 'Try:\n\n```ts title="x"\nconst x = 1;\nconsole.log(x);\n```\n\nand\n\n```\nplain\n```\n' }, { type: 'turn.end', reason: 'done', rounds: 1 });
    const blocks = chat.page.locator('[data-kind="code-block"]');
    await blocks.nth(1).waitFor();
    assert.equal(await blocks.nth(0).locator('.code-language').innerText(), 'ts');

    await blocks.nth(0).getByRole('button', { name: 'Insert at cursor' }).click();
    await blocks.nth(1).getByRole('button', { name: 'Insert at cursor' }).click();
    assert.deepEqual(await chat.waitForPosted('insertCode', 2), [
      { type: 'insertCode', code: 'const x = 1;\nconsole.log(x);', language: 'ts' },
      { type: 'insertCode', code: 'plain' },
    ]);

    await blocks.nth(0).getByRole('button', { name: 'Copy code' }).click();
    await blocks.nth(0).locator('[data-copied="true"]').waitFor();
    assert.equal(await chat.page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), 'const x = 1;\nconsole.log(x);');
  });

  it('copies through the selection fallback when the Clipboard API refuses', async () => {
    const chat = await env.open();
    await chat.init();
    // A string, not a function: the test transpiler would wrap inner functions in helpers the page lacks.
    await chat.page.evaluate(`
      globalThis.__copied = [];
      Object.defineProperty(navigator, 'clipboard', { value: { writeText() { return Promise.reject(new Error('denied')); } } });
      document.addEventListener('copy', function () { globalThis.__copied.push(String(document.getSelection())); });
    `);
    await chat.events({ type: 'text.delta', text: '```sh\nnpm test\n```' }, { type: 'turn.end', reason: 'done', rounds: 1 });
    await chat.page.getByRole('button', { name: 'Copy code' }).click();
    await chat.page.locator('[data-copied="true"]').waitFor();
    assert.deepEqual(await chat.page.evaluate(() => (globalThis as any).__copied), ['npm test']);
    assert.equal(await chat.page.locator('textarea').count(), 1, 'the helper textarea is gone again');
  });

  it('shows the title in the header without repeating the view title bar\'s New Chat and history buttons (issue 18)', async () => {
    const chat = await env.open();
    await chat.init({ title: 'Fix the login bug' });
    const header = chat.page.locator('[data-kind="header"]');
    assert.equal(await header.locator('.chat-title').innerText(), 'Fix the login bug');
    // New Chat and Resume Session are the view's title-bar actions (package.json view/title): one set only.
    assert.equal(await header.getByRole('button').count(), 0);
    assert.equal(await chat.page.getByRole('button', { name: /^(New chat|History)$/i }).count(), 0);
  });
});
