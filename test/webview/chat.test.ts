import assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';

describe('webview: composing and streaming in Chromium with a fake host', function () {
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

  it('shows reasoning.delta collapsed above the answer ("Thinking…", then "Thought"), as plain text, never inside the answer', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'why?' }, { type: 'round.start', round: 1 }, { type: 'reasoning.delta', text: 'The user asks **why**. ' }, { type: 'reasoning.delta', text: 'Check <b>first</b>.' });
    const thought = chat.items('assistant').locator('[data-kind="reasoning"]');
    await thought.waitFor();
    assert.match(await thought.locator('summary').innerText(), /Thinking…/);
    assert.equal(await thought.evaluate((el) => (el as any).open), false, 'collapsed');
    assert.ok(!(await thought.locator('.reasoning-text').isVisible()), 'its text shows only when opened');
    await chat.events({ type: 'text.delta', text: 'Because **it is**.' }, { type: 'turn.end', reason: 'done', rounds: 1 });
    await chat.page.locator('[data-kind="assistant"][data-streaming="false"]').waitFor();
    assert.match(await thought.locator('summary').innerText(), /Thought\s*\(6 words\)/);
    const reply = chat.items('assistant');
    assert.equal(await reply.locator('.markdown strong, strong').last().innerText(), 'it is', 'the answer is Markdown');
    await thought.locator('summary').click();
    assert.equal(await thought.locator('.reasoning-text').innerText(), 'The user asks **why**. Check <b>first</b>.', 'reasoning is plain text (no Markdown, no HTML)');
    assert.equal(await thought.locator('b, strong').count(), 0);
    assert.equal(await chat.items('assistant').count(), 1, 'reasoning and answer are one message');
    assert.deepEqual(chat.pageErrors, []);
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
});
