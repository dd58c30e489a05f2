import * as assert from 'node:assert/strict';
import { chatTurn, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';
import { waitUntil } from '../fixtures/eventually';

describe("e2e: the setup card's Open Settings opens on model.baseUrl (issues 18, 29)", function () {
  const model = useScriptedModel();
  // No key and the default endpoint: the chat starts with its setup card.
  const vscode = useVsCode(() => ({ env: { OPENAI_API_KEY: '' }, settings: { 'snowpea.model.name': 'scripted-model' } }));

  it('Open Settings on the card shows Base Url without typing; set it on the User tab to a local server, and chat', async function () {
    const { workbench, page } = vscode();
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame('[data-kind="setup"]');
    await frame.locator('[data-kind="setup"]').getByRole('button', { name: 'Open Settings' }).click();

    const editor = page.locator('.settings-editor');
    await editor.locator('.setting-item-title').first().waitFor({ state: 'visible' });
    await editor.locator('.settings-tabs-widget .action-label', { hasText: /^User$/ }).click();
    // Nothing typed: the editor opens filtered to the endpoint and the model, Base Url first.
    const titles = editor.locator('.setting-item-contents .setting-item-title');
    await waitUntil(async () => (await titles.allInnerTexts()).length === 3, 'the list to filter to the endpoint settings');
    assert.deepEqual((await titles.allInnerTexts()).map((t) => t.replace(/^Snowpea › /, '').trim()), ['Model: Base Url', 'Model: Name', 'Model: Provider']);
    const item = editor.locator('.setting-item-contents', { has: page.locator('.setting-item-title', { hasText: /Base Url/i }) }).first();
    const input = item.locator('.setting-item-control input').first();
    await input.waitFor({ state: 'visible' });
    assert.equal(await input.inputValue(), 'https://api.openai.com/v1');
    await input.fill(model().baseUrl);
    await input.press('Tab');

    // The host reads the new endpoint: the card goes, and a chat reaches the local server.
    await frame.locator('[data-kind="setup"]').waitFor({ state: 'detached' });
    // Leave the settings editor (code-server may show it as a modal that keeps the keyboard focus).
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    model().enqueue({ text: 'answered through the endpoint set in Settings' });
    await chatTurn(workbench, 'hello', 'answered through the endpoint set in Settings');
    assert.equal(model().chatRequests().length, 1);
  });
});
