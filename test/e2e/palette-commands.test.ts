import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';

describe('e2e: Snowpea commands from the command palette', function () {
  const vscode = useVsCode();

  it('Snowpea: New Chat reveals the chat view with an empty transcript', async function () {
    const { workbench } = vscode();
    await workbench.waitForSnowpea();
    // Start from the Explorer: the command itself has to reveal Snowpea.
    await workbench.showContainer('Explorer');
    assert.equal(await workbench.isActivityItemActive('Snowpea'), false);

    await workbench.runCommand('Snowpea: New Chat');

    await workbench.sidebarTitle('Snowpea').waitFor({ state: 'visible' });
    assert.equal(await workbench.isActivityItemActive('Snowpea'), true);
    const frame = await workbench.findWebviewFrame(CHAT.transcript);
    await frame.locator(CHAT.composer).waitFor({ state: 'visible' });
    assert.equal(await frame.locator(CHAT.transcriptItem).count(), 0);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });

  it('Snowpea: Show Tools reveals the Tools tree', async function () {
    const { workbench } = vscode();
    await workbench.waitForSnowpea();
    await workbench.showContainer('Explorer');

    await workbench.runCommand('Snowpea: Show Tools');

    await workbench.sidebarTitle('Snowpea').waitFor({ state: 'visible' });
    await workbench.treeRow('Tools', /^Core\b/).first().waitFor({ state: 'visible' });
  });

  it("Snowpea: Open Settings opens the Settings editor filtered to Snowpea's settings", async function () {
    const { page, workbench } = vscode();
    await workbench.waitForSnowpea();
    await workbench.showContainer('Explorer');

    await workbench.runCommand('Snowpea: Open Settings');

    const titles = page.locator('.settings-editor .setting-item-contents .setting-item-title');
    // Wait for the filtered list before reading it.
    await titles.filter({ hasText: /^Snowpea › / }).first().waitFor({ state: 'visible' });
    const shown = await titles.allInnerTexts();
    assert.ok(shown.length > 0);
    for (const title of shown) assert.match(title, /^Snowpea › /);
  });
});
