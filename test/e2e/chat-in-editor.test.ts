import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: Snowpea: Open Chat in Editor (issue 29)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('opens the chat in one editor tab that shows and continues the side bar\'s session', async function () {
    const model = scripted();
    const { workbench, page } = vscode();
    model.enqueue({ text: 'answered in the side bar' });
    await chatTurn(workbench, 'first question', 'answered in the side bar');

    // From the chat view's title bar.
    await workbench.viewPane('Chat').locator('.pane-header').hover();
    await workbench.viewPane('Chat').locator('.pane-header .action-label[aria-label="Open Chat in Editor"]').click();
    const tab = page.locator('.part.editor .tab', { has: page.locator('.label-name', { hasText: /^Snowpea Chat$/ }) });
    await tab.waitFor({ state: 'visible' });
    const editorChat = await workbench.findWebviewFrameOver('.part.editor', CHAT.composer);
    // The same session: the side bar's turn is there, under the same CSP (the bundle ran).
    await editorChat.locator(CHAT.transcript).getByText('answered in the side bar').waitFor({ state: 'visible' });

    model.enqueue({ text: 'answered in the editor tab' });
    await editorChat.locator(CHAT.composer).fill('second question');
    await editorChat.locator(CHAT.composer).press('Enter');
    await editorChat.locator(CHAT.transcript).getByText('answered in the editor tab').waitFor({ state: 'visible' });
    assert.equal(model.chatRequests().length, 2);
    const second = JSON.stringify(model.chatRequests()[1].body.messages);
    assert.match(second, /first question/, 'the editor tab continued the side bar\'s conversation');
    // The side bar shows the editor tab's turn too.
    const sidebarChat = await workbench.findWebviewFrameOver('.part.sidebar', CHAT.composer);
    await sidebarChat.locator(CHAT.transcript).getByText('answered in the editor tab').waitFor({ state: 'visible' });

    // The palette command reveals the one tab rather than opening another.
    await workbench.runCommand('Snowpea: Open Chat in Editor');
    await tab.waitFor({ state: 'visible' });
    assert.equal(await tab.count(), 1);

    // New Chat clears both.
    await workbench.runCommand('Snowpea: New Chat');
    await editorChat.locator(CHAT.transcriptItem).first().waitFor({ state: 'detached' });
    await sidebarChat.locator(CHAT.transcriptItem).first().waitFor({ state: 'detached' });
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
