import assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';

describe('webview: chat in Chromium with a fake host', function () {
  const env = useWebviewEnv();

  it('renders the empty chat with a composer, themed and with codicons, and posts ready', async () => {
    const chat = await env.open();
    await chat.composer.waitFor();
    assert.ok(await chat.composer.isVisible());
    assert.ok(await chat.page.locator('[data-kind="welcome"]').isVisible());
    assert.ok(await chat.sendButton.isDisabled(), 'nothing to send yet');
    const posted = await chat.posted();
    assert.deepEqual(posted[0], { type: 'ready' });
    assert.equal(posted.length, 1);
    // The stylesheet (served from cspSource) and the codicon font CSS applied under the CSP.
    assert.equal(await chat.page.locator('.app').evaluate((el) => (globalThis as any).getComputedStyle(el).display), 'flex');
    const iconFont = await chat.page.locator('.composer .codicon').first().evaluate((el) => (globalThis as any).getComputedStyle(el).fontFamily);
    assert.match(iconFont, /codicon/);
    assert.deepEqual(chat.pageErrors, []);
    assert.deepEqual(chat.consoleOf('error'), [], 'no CSP violations or errors while rendering');
  });

  it('sends the composed message as a valid `send` on Enter; Shift+Enter adds a line', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.click();
    await chat.page.keyboard.type('first line');
    await chat.page.keyboard.press('Shift+Enter');
    await chat.page.keyboard.type('second **line**');
    assert.equal(await chat.composer.inputValue(), 'first line\nsecond **line**');
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 0, 'Shift+Enter must not send');

    await chat.page.keyboard.press('Enter');
    const [send] = await chat.waitForPosted('send');
    assert.deepEqual(send, { type: 'send', text: 'first line\nsecond **line**' });
    assert.ok(parseWebviewMessage(send).ok);

    // The message shows at once, as typed (not Markdown), and the composer is cleared for the next one.
    await chat.items('user').waitFor();
    assert.equal(await chat.items('user').innerText(), 'first line\nsecond **line**');
    assert.equal(await chat.composer.inputValue(), '');
    await chat.stopButton.waitFor();
  });

  it('sends with the Send button and stops the running turn with Stop', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.fill('run the tests');
    await chat.sendButton.click();
    assert.equal((await chat.waitForPosted('send'))[0]?.text, 'run the tests');
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'run the tests' });
    await chat.stopButton.click();
    await chat.waitForPosted('stop');
    await chat.events({ type: 'turn.end', reason: 'cancelled', rounds: 1 });
    await chat.sendButton.waitFor();
    assert.equal(await chat.items('notice').innerText(), 'Stopped.');
    assert.equal(await chat.items('user').count(), 1, 'turn.start confirms the sent message instead of adding another');
  });

  it('streams text.delta events into the reply and renders it as Markdown', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.composer.fill('explain');
    await chat.page.keyboard.press('Enter');
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'explain' }, { type: 'round.start', round: 1 }, { type: 'text.delta', text: 'Here is **bo' });

    const reply = chat.items('assistant');
    await reply.waitFor();
    assert.equal(await reply.getAttribute('data-streaming'), 'true');
    await chat.page.waitForFunction(() => (globalThis as any).document.querySelector('[data-kind="assistant"]')?.textContent.includes('Here is'));

    await chat.events(
      { type: 'text.delta', text: 'ld** text.\n\n```ts\nconst x' },
      { type: 'text.delta', text: ' = 1;\n```\n\n- one\n- two\n' },
      { type: 'turn.end', reason: 'done', rounds: 1 },
    );
    await chat.page.locator('[data-kind="assistant"][data-streaming="false"]').waitFor();
    assert.equal(await reply.locator('strong').innerText(), 'bold');
    assert.equal((await reply.locator('pre code').innerText()).trimEnd(), 'const x = 1;');
    assert.equal(await reply.locator('li').count(), 2);
    assert.equal(await chat.items('assistant').count(), 1, 'all deltas of a round land in one message');
    await chat.sendButton.waitFor();
  });

  it('follows the stream at the bottom, and stays put once the reader scrolls up', async () => {
    const chat = await env.open();
    await chat.page.setViewportSize({ width: 360, height: 400 });
    await chat.init();
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}.\n\n`);
    for (const p of paragraphs) await chat.events({ type: 'text.delta', text: p });
    await chat.page.getByText('Paragraph 40.').waitFor();
    const atBottom = () => {
      const el = (globalThis as any).document.querySelector('.transcript');
      return el.scrollHeight > el.clientHeight && el.scrollHeight - el.scrollTop - el.clientHeight < 2;
    };
    await chat.page.waitForFunction(atBottom);

    await chat.page.locator('.transcript').hover();
    await chat.page.mouse.wheel(0, -100_000);
    await chat.page.waitForFunction(() => (globalThis as any).document.querySelector('.transcript').scrollTop === 0);
    await chat.events({ type: 'text.delta', text: 'One more paragraph.' });
    await chat.page.getByText('One more paragraph.').waitFor();
    assert.equal(await chat.page.locator('.transcript').evaluate((el) => el.scrollTop), 0, 'the reader keeps their place');
  });

  it('shows tool calls as one-line cards with running, ok and error states', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events(
      { type: 'turn.start', turn: 1, prompt: 'look around' },
      { type: 'text.delta', text: 'Let me look.' },
      { type: 'tool.call', callId: 'c1', tool: 'read_file', args: '{"path":"src/app.ts"}' },
    );
    const card = chat.toolCard('c1');
    await card.waitFor();
    assert.equal(await card.getAttribute('data-status'), 'running');
    assert.equal(await card.locator('.tool-name').innerText(), 'read_file');
    assert.equal(await card.locator('.tool-summary').innerText(), 'src/app.ts');

    await chat.events(
      { type: 'tool.output', callId: 'c1', chunk: 'line 1\n' },
      { type: 'tool.result', callId: 'c1', tool: 'read_file', ok: true, summary: 'read src/app.ts (120 lines)' },
      { type: 'tool.call', callId: 'c2', tool: 'bash', args: '{"command":"npm test"}' },
      { type: 'tool.result', callId: 'c2', tool: 'bash', ok: false, summary: 'exit code 1', errorCode: 'EXIT_1' },
      { type: 'text.delta', text: 'The tests fail.' },
    );
    await chat.page.locator('.tool-card[data-call-id="c2"][data-status="error"]').waitFor();
    assert.equal(await card.getAttribute('data-status'), 'ok');
    assert.equal(await card.locator('.tool-summary').innerText(), 'read src/app.ts (120 lines)');
    assert.equal(await chat.toolCard('c2').locator('.tool-error-code').innerText(), 'EXIT_1');
    // Text, tools, then the next round's text as its own message, in order.
    const kinds = await chat.page.locator('.transcript-content > [data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    assert.deepEqual(kinds, ['user', 'assistant', 'tool', 'tool', 'assistant']);
    const cardHeight = await card.evaluate((el) => el.getBoundingClientRect().height);
    const lineHeight = await card.locator('.tool-name').evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(cardHeight < lineHeight * 2, `a tool card is one line (card ${cardHeight}px, line ${lineHeight}px)`);

    await chat.events({ type: 'tool.call', callId: 'c3', tool: 'grep', args: '{}' }, { type: 'turn.end', reason: 'cancelled', rounds: 2 });
    await chat.page.locator('.tool-card[data-call-id="c3"][data-status="stopped"]').waitFor();
  });

  it('shows loaded tools as a chip, the loop banner and errors', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events(
      { type: 'turn.start', turn: 1, prompt: 'commit it' },
      { type: 'tools.loaded', tools: ['git_diff', 'git_commit'] },
      { type: 'loop.suspected', tool: 'read_file', count: 3 },
      { type: 'error', message: 'The endpoint returned 500 for model test-model', kind: 'server' },
    );
    await chat.items('tools.loaded').waitFor();
    assert.equal(await chat.items('tools.loaded').innerText(), 'loaded git_diff, git_commit');
    assert.equal((await chat.page.locator('.composer .tools-count').innerText()).trim(), '4', 'the composer counts the loaded tools');

    const banner = chat.page.locator('[data-kind="loop"]');
    assert.match(await banner.innerText(), /read_file was called 3 times/);
    assert.equal(await chat.items('error').innerText(), 'The endpoint returned 500 for model test-model');

    await chat.host({ type: 'error', message: 'Could not save the session' });
    await chat.page.locator('[data-kind="error"]', { hasText: 'Could not save the session' }).waitFor();

    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
  });

  it('ignores invalid host messages without breaking the UI', async () => {
    const chat = await env.open();
    await chat.init();
    const bad: unknown[] = [
      null,
      'text.delta',
      { type: 'nope' },
      { type: 'event', event: { type: 'text.delta', sessionId: 's1', text: 42 } },
      { type: 'event', event: { type: 'text.delta', text: 'no session id' } },
      { type: 'event', event: { type: 'tool.call', sessionId: 's1', callId: 'x', tool: 'rm' } },
      { type: 'init', sessionId: 7 },
    ];
    for (const m of bad) await chat.hostRaw(m);
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'still alive?' }, { type: 'text.delta', text: 'Yes, *still* here.' });
    await chat.page.locator('[data-kind="assistant"] em').waitFor();
    assert.equal(await chat.items('assistant').innerText(), 'Yes, still here.');
    assert.equal(await chat.page.locator('.tool-card').count(), 0);
    assert.deepEqual(chat.pageErrors, []);
    const warnings = chat.consoleOf('warning').filter((w) => w.includes('[snowpea] ignored invalid host message'));
    assert.equal(warnings.length, bad.length, warnings.join('\n'));
    // The UI still works both ways.
    await chat.events({ type: 'turn.end', reason: 'done', rounds: 1 });
    await chat.composer.fill('next');
    await chat.page.keyboard.press('Enter');
    await chat.waitForPosted('send');
  });

  it('ignores events of another session', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'event', event: { type: 'text.delta', sessionId: 'old-session', text: 'stale' } });
    await chat.events({ type: 'text.delta', text: 'fresh' });
    await chat.items('assistant').waitFor();
    assert.equal(await chat.items('assistant').innerText(), 'fresh');
  });

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

  it('answers approvals and questions inline', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({ type: 'approval.request', id: 'a1', tool: 'write_file', summary: 'write .env', reason: '.env is a protected path' });
    await chat.host({ type: 'ask.request', id: 'q1', question: 'Which database?', choices: ['sqlite', 'postgres'] });
    const approval = chat.page.locator('[data-kind="approval"]');
    assert.match(await approval.innerText(), /protected path/);
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await chat.page.getByRole('button', { name: 'postgres' }).click();
    assert.deepEqual((await chat.waitForPosted('approval.reply'))[0], { type: 'approval.reply', id: 'a1', decision: 'allow' });
    assert.deepEqual((await chat.waitForPosted('ask.reply'))[0], { type: 'ask.reply', id: 'q1', answer: 'postgres' });
    await chat.page.locator('.requests').waitFor({ state: 'detached' });
  });

  it('shows the setup card and Restricted Mode from init', async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: true, workspaceTrusted: false });
    await chat.page.locator('[data-kind="setup"]').waitFor();
    assert.match(await chat.page.locator('[data-kind="restricted"]').innerText(), /Restricted Mode/);
  });
});
