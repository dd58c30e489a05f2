import * as assert from 'node:assert/strict';
import { useVsCode } from './harness/use-vscode';
import { waitUntil } from '../fixtures/eventually';

/** Settings whose scope the trust boundary changed: each must still be found on the User tab, where a new user sets it. */
const KEYS: Array<[id: string, title: RegExp]> = [
  ['snowpea.model.baseUrl', /Base Url/i],
  ['snowpea.model.provider', /Provider/i],
  ['snowpea.approvals.autoApprove', /Auto Approve/i],
  ['snowpea.browser.executablePath', /Executable Path/i],
  ['snowpea.browser.cdpUrl', /Cdp Url/i],
  ['snowpea.mcp.servers', /Servers/i],
];

describe('e2e: every security-relevant setting is reachable from Snowpea: Open Settings', function () {
  const vscode = useVsCode();

  it('the User tab shows model.baseUrl, approvals.autoApprove, browser and MCP settings (no "No Settings Found")', async function () {
    const { page, workbench } = vscode();
    await workbench.waitForSnowpea();
    await workbench.runCommand('Snowpea: Open Settings');
    const editor = page.locator('.settings-editor');
    await editor.locator('.setting-item-title').first().waitFor({ state: 'visible' });
    await editor.locator('.settings-tabs-widget .action-label', { hasText: /^User$/ }).click();
    const selected = editor.locator('.settings-tabs-widget .action-label.checked');
    await selected.waitFor({ state: 'visible' });
    assert.equal((await selected.innerText()).trim(), 'User');
    const search = editor.locator('.settings-header .suggest-input-container');
    for (const [id, title] of KEYS) {
      await search.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type(id);
      const row = editor.locator('.setting-item-contents .setting-item-title', { hasText: title }).first();
      await row.waitFor({ state: 'visible' }).catch(async () => {
        throw new Error(`${id} is not shown on the User tab: ${(await editor.innerText()).slice(0, 400)}`);
      });
      assert.equal(await editor.locator('.no-results-message:visible').count(), 0, `${id}: No Settings Found`);
      // The search really filtered: every row left is the one asked for.
      const titles = editor.locator('.setting-item-contents .setting-item-title');
      await waitUntil(async () => (await titles.allInnerTexts()).every((t) => title.test(t)), `${id}: the list did not filter to it`);
    }
  });
});
