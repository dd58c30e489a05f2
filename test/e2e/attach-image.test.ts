import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makePng, writeSparsePng } from '../fixtures/images/make';
import { useVsCode } from './harness/use-vscode';

describe('e2e: Snowpea: Attach Image...', function () {
  // The workbench's own open dialog (a quick input), not the browser's file picker.
  const vscode = useVsCode({ settings: { 'files.simpleDialog.enable': true } });

  /** Picks a file in the workbench's own open dialog (a quick input in VS Code for the web). */
  async function pick(file: string): Promise<void> {
    const { workbench, page } = vscode();
    await workbench.runCommandKeepingInput('Snowpea: Attach Image...');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    // The dialog starts in the workspace folder: its path, ending in a slash, is in the box.
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'picked.png' }).first().waitFor({ state: 'visible' });
    await input.fill(file);
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden' });
  }

  it('adds a picked image to the composer as a thumbnail, and refuses one over 20 MB on its thumbnail', async function () {
    const { workbench, workspace } = vscode();
    fs.writeFileSync(path.join(workspace, 'picked.png'), makePng({ width: 64, height: 48 }));
    writeSparsePng(path.join(workspace, 'huge.png'), 21 * 1024 * 1024);
    await workbench.openSnowpea();

    await pick(path.join(workspace, 'picked.png'));
    const frame = await workbench.findWebviewFrame('.attachment[data-name="picked.png"]');
    await frame.locator('.attachment[data-name="picked.png"][data-status="ready"]').waitFor({ state: 'visible' });
    assert.equal(await frame.locator('.attachment[data-name="picked.png"] .attachment-dims').innerText(), '64×48');

    await pick(path.join(workspace, 'huge.png'));
    const huge = frame.locator('.attachment[data-name="huge.png"][data-status="error"]');
    await huge.waitFor({ state: 'visible' });
    assert.match(await huge.innerText(), /over the 20 MB limit/);
    assert.equal(await frame.locator('.attachment[data-name="picked.png"][data-status="ready"]').count(), 1, 'the other image stays');
  });
});
