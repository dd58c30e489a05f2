/** The composer's model picker and reasoning-effort control (issue 30, item 5), in the built webview. */
import assert from 'node:assert/strict';
import type { HostMessage } from '../../extension/protocol';
import type { ChatPage } from './harness/chat-page';
import { boxInViewport, overflowing, textHidden } from './harness/layout';
import { useWebviewEnv } from './harness/suite';

type Header = Extract<HostMessage, { type: 'header' }>;

const EFFORT: NonNullable<Header['effort']> = { control: 'effort', picked: null, defaultLabel: 'default', defaultMeans: "the model's own default (no reasoning_effort sent)" };

/** The host's header after a pick, as AgentHost sends it. */
function header(chat: ChatPage, over: Partial<Header>): Header {
  return { type: 'header', sessionId: chat.sessionId, title: 'New chat', model: 'gpt-4.1-mini', defaultModel: 'gpt-4.1-mini', workspaceTrusted: true, setupNeeded: false, ...over };
}

describe('webview: the model picker and the effort control (issue 30)', function () {
  const env = useWebviewEnv();

  it('the model opens the picker: the provider is asked, the default comes first and is current, a filtered pick is posted and shown', async () => {
    const chat = await env.open();
    await chat.init({ model: 'gpt-4.1-mini', defaultModel: 'gpt-4.1-mini' });
    const button = chat.page.locator('[data-kind="model-picker"]');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    await button.click();
    await chat.waitForPosted('models.list');
    const panel = chat.page.locator('[data-kind="model-panel"]');
    await panel.getByText('Asking the provider for its models…').waitFor();
    await chat.host({ type: 'models.result', models: ['gpt-4.1', 'gpt-4.1-mini', 'o4-mini'] });
    const options = panel.getByRole('option');
    await options.nth(2).waitFor();
    assert.deepEqual(await options.allInnerTexts(), ['gpt-4.1-mini\ndefault', 'gpt-4.1', 'o4-mini']);
    assert.equal(await options.first().getAttribute('data-current'), 'true', 'the model in use is checked');
    assert.equal(await button.getAttribute('aria-expanded'), 'true');

    const filter = panel.getByRole('combobox', { name: /Filter models/ });
    assert.equal(await filter.evaluate((el) => el === el.ownerDocument.activeElement), true, 'the filter has the focus');
    await chat.page.keyboard.type('o4');
    assert.deepEqual(await options.allInnerTexts(), ['o4-mini', 'o4\nuse this name'], 'what is typed can be used as it is, after the matches');
    await chat.page.keyboard.press('Enter');
    await panel.waitFor({ state: 'detached' });
    assert.deepEqual((await chat.waitForPosted('model.set')).map((m) => m.model), ['o4-mini']);
    assert.equal(await chat.page.locator('.composer .model').getAttribute('title'), 'o4-mini', 'shown at once; the header confirms it');
    assert.equal(await chat.composer.evaluate((el) => el === el.ownerDocument.activeElement), true, 'back to the message');
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 0, 'Enter picked, it did not send');
  });

  it('a name the provider did not list can be typed; its error is shown; the default puts the setting back; Escape closes', async () => {
    const chat = await env.open();
    await chat.init({ model: 'o4-mini', defaultModel: 'gpt-4.1-mini' });
    await chat.page.locator('[data-kind="model-picker"]').click();
    await chat.host({ type: 'models.result', models: [], error: 'The provider did not list its models (404 Not Found); type a model name instead.' });
    const panel = chat.page.locator('[data-kind="model-panel"]');
    await panel.locator('[data-kind="model-error"]', { hasText: '404 Not Found' }).waitFor();
    await chat.page.keyboard.type('my-local-model');
    const options = panel.getByRole('option');
    assert.deepEqual(await options.allInnerTexts(), ['my-local-model\nuse this name']);
    await chat.page.keyboard.type(' x');
    assert.equal(await options.count(), 0, 'a name with a space is not offered');
    await chat.page.keyboard.press('Backspace');
    await chat.page.keyboard.press('Backspace');
    await options.first().click();
    assert.deepEqual((await chat.waitForPosted('model.set')).map((m) => m.model), ['my-local-model']);
    await chat.host(header(chat, { model: 'my-local-model' }));

    await chat.page.locator('[data-kind="model-picker"]').click();
    await chat.host({ type: 'models.result', models: ['gpt-4.1-mini', 'o4-mini'] });
    await options.first().waitFor();
    assert.deepEqual(await options.allInnerTexts(), ['gpt-4.1-mini\ndefault', 'o4-mini']);
    await options.first().click();
    assert.deepEqual((await chat.waitForPosted('model.set', 2)).map((m) => m.model), ['my-local-model', null], 'the default: back to model.name');

    await chat.page.locator('[data-kind="model-picker"]').click();
    await panel.waitFor();
    await chat.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    assert.equal((await chat.posted()).filter((m) => m.type === 'model.set').length, 2, 'Escape picks nothing');
  });

  it('the effort control shows only for a model that takes one; a pick is posted; its default says what it means', async () => {
    const chat = await env.open();
    await chat.init({ model: 'gpt-4.1-mini', defaultModel: 'gpt-4.1-mini' });
    const select = chat.page.getByRole('combobox', { name: 'Reasoning effort' });
    assert.equal(await select.count(), 0, 'gpt-4.1-mini takes no effort');
    await chat.host(header(chat, { model: 'o4-mini', effort: EFFORT }));
    await select.waitFor();
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['default', 'low', 'medium', 'high']);
    assert.equal(await select.inputValue(), '');
    assert.match((await chat.page.locator('.effort').getAttribute('title')) ?? '', /default: the model's own default \(no reasoning_effort sent\)/);
    await select.selectOption('high');
    assert.deepEqual((await chat.waitForPosted('effort.set')).map((m) => m.effort), ['high']);
    assert.equal(await select.inputValue(), 'high', 'shown at once');
    await select.selectOption('');
    assert.deepEqual((await chat.waitForPosted('effort.set', 2)).map((m) => m.effort), ['high', null]);

    await chat.host(header(chat, { model: 'claude-sonnet-4-5', effort: { control: 'thinking', picked: 'medium', defaultLabel: 'off', defaultMeans: 'no extended thinking' } }));
    await chat.page.locator('.effort[title*="thinking budget"]').waitFor();
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['off', 'low', 'medium', 'high']);
    assert.equal(await select.inputValue(), 'medium');

    await chat.host(header(chat, { model: 'gpt-4.1' }));
    await select.waitFor({ state: 'detached' });
  });

  for (const width of [200, 300]) {
    it(`at ${width} px the model, its effort and the meter fit: the composer stays on screen, nothing overflows sideways, open or closed`, async () => {
      const chat = await env.open();
      await chat.page.setViewportSize({ width, height: 353 });
      const model = 'accounts/fireworks/models/gpt-oss-120b';
      await chat.init({ model, defaultModel: 'gpt-4.1-mini', effort: { ...EFFORT, picked: 'medium' } });
      await chat.host({ type: 'meter', sessionId: chat.sessionId, round: 2, promptTokens: 1800, cachedTokens: 1200, contextWindow: 128_000, compactAtTokens: 100_000, deferredTools: 19 });
      await chat.page.getByRole('combobox', { name: 'Reasoning effort' }).waitFor();
      const check = async (when: string) => {
        const { outside, sideways, scrollWidth, clientWidth } = await overflowing(chat.page);
        assert.deepEqual(outside, [], `${when}: elements outside the view sideways`);
        assert.deepEqual(sideways, [], `${when}: boxes that scroll sideways`);
        assert.ok(scrollWidth <= clientWidth, `${when}: the page does not scroll sideways`);
        for (const selector of ['[data-testid="composer"]', '.composer button[aria-label="Send"]', '[data-kind="model-picker"]', '.effort select']) {
          const box = await boxInViewport(chat.page, selector);
          assert.ok(box && box.width > 0, `${when}: ${selector} is there`);
          assert.ok(box.left >= -0.5 && box.right <= box.viewWidth + 0.5 && box.top >= -0.5 && box.bottom <= box.viewHeight + 0.5, `${when}: ${selector} is on screen: [${box.left}, ${box.right}] x [${box.top}, ${box.bottom}]`);
        }
      };
      await check('closed');
      // At 300 px the model's own name reads whole beside the effort (which wraps first); at 200 px it may give way, but nothing overflows.
      if (width >= 300) assert.equal(await textHidden(chat.page, '.composer .model', 'gpt-oss-120b'), '', "the model's own name reads whole");
      await chat.page.locator('[data-kind="model-picker"]').click();
      await chat.host({ type: 'models.result', models: [model, 'accounts/fireworks/models/a-very-long-model-name-that-does-not-fit-in-a-narrow-side-bar-at-all', 'gpt-4.1-mini'] });
      await chat.page.locator('[data-kind="model-panel"]').getByRole('option').nth(2).waitFor();
      await check('open');
      assert.deepEqual(chat.pageErrors, []);
    });
  }
});
