import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';

describe('e2e: the Snowpea activity-bar entry', function () {
  // The default endpoint (api.openai.com) and no key: the chat starts with its setup card.
  const vscode = useVsCode({ env: { OPENAI_API_KEY: '' } });

  it('opens the chat view, whose webview renders a working composer', async function () {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    await workbench.viewPane('Chat').waitFor({ state: 'visible' });

    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const composer = frame.locator(CHAT.composer);
    await composer.waitFor({ state: 'visible' });
    assert.equal(await composer.evaluate((el) => el.tagName), 'TEXTAREA');
    await frame.locator(CHAT.transcript).waitFor({ state: 'visible' });

    await composer.fill('hello from the e2e test');
    assert.equal(await composer.inputValue(), 'hello from the e2e test');
  });

  it("the first-run setup card's Set API Key stores a key, and the card goes away", async function () {
    const { workbench, page } = vscode();
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame('[data-kind="setup"]');
    await frame.locator('[data-kind="setup"]').getByRole('button', { name: 'Set API Key' }).click();

    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    assert.equal(await input.getAttribute('type'), 'password', 'the key is not shown as it is typed');
    await input.fill('sk-e2e-test-key');
    await page.keyboard.press('Enter');
    await page.locator('.notification-toast', { hasText: 'Snowpea: API key saved.' }).waitFor({ state: 'visible' });
    await frame.locator('[data-kind="setup"]').waitFor({ state: 'detached' });
  });
});
