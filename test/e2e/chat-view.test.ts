import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';

describe('e2e: the Snowpea activity-bar entry', function () {
  const vscode = useVsCode();

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
});
