import * as assert from 'node:assert/strict';
import { useVsCode } from './harness/use-vscode';

describe('e2e: Snowpea: New Chat from the command palette', function () {
  const vscode = useVsCode();

  it('shows the chat view with an empty transcript', async function () {
    const { workbench } = vscode();
    // The workbench opens on the Explorer: the command itself has to reveal Snowpea.
    await workbench.activityItem('Snowpea').waitFor({ state: 'visible', timeout: 60_000 });
    await workbench.sidebarTitle('Explorer').waitFor({ state: 'visible' });
    assert.equal(await workbench.isActivityItemActive('Snowpea'), false);

    await workbench.runCommand('Snowpea: New Chat');

    await workbench.sidebarTitle('Snowpea').waitFor({ state: 'visible' });
    assert.equal(await workbench.isActivityItemActive('Snowpea'), true);
    const frame = await workbench.findWebviewFrame('[data-testid="transcript"]');
    await frame.locator('[data-testid="composer"]').waitFor({ state: 'visible' });
    await frame.locator('[data-testid="transcript"] [data-testid="message"]').first().waitFor({ state: 'detached' });
    assert.equal(await frame.locator('[data-testid="transcript"] [data-testid="message"]').count(), 0);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
