import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { CHAT } from './harness/selectors';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: session history (resume and delete)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  /** Runs a palette command that opens the session picker; returns the picker's row for `title`. */
  async function pickerRow(command: string, title: string): Promise<Locator> {
    const { workbench } = vscode();
    await workbench.runCommandKeepingInput(command);
    const row = workbench.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { has: workbench.page.locator('.label-name', { hasText: title }) });
    await row.first().waitFor({ state: 'visible' });
    return row.first();
  }

  async function confirmModal(button: string): Promise<void> {
    const { page } = vscode();
    const ok = page.locator('.monaco-dialog-box .monaco-button', { hasText: new RegExp(`^${button}$`) });
    await ok.waitFor({ state: 'visible' });
    await ok.click();
    await ok.waitFor({ state: 'detached' });
  }

  it('resumes an earlier session, deletes the current one (the chat starts over) and deletes one from the picker', async function () {
    const model = scripted();
    const { workbench, page } = vscode();
    model.enqueue({ text: 'Answer in the first session.' }, { text: 'Answer in the second session.' });
    await chatTurn(workbench, 'first session prompt', 'Answer in the first session.');
    await workbench.runCommand('Snowpea: New Chat');
    await chatTurn(workbench, 'second session prompt', 'Answer in the second session.');

    // Resume the first: its transcript replaces the second's.
    await (await pickerRow('Snowpea: Resume Session...', 'first session prompt')).click();
    const frame = await workbench.findWebviewFrame(CHAT.transcript);
    const transcript = frame.locator(CHAT.transcript);
    await transcript.getByText('Answer in the first session.').waitFor({ state: 'visible' });
    assert.equal(await transcript.getByText('Answer in the second session.').count(), 0);

    // Delete the current session from the palette: confirmed in a modal, then the chat is empty.
    await (await pickerRow('Snowpea: Delete Session...', 'first session prompt')).click();
    await confirmModal('Delete');
    await transcript.getByText('Answer in the first session.').waitFor({ state: 'detached' });
    assert.equal(await frame.locator(CHAT.transcriptItem).count(), 0);

    // Delete the other from the Resume picker's trash button.
    const row = await pickerRow('Snowpea: Resume Session...', 'second session prompt');
    await row.hover();
    await row.locator('.action-label.codicon-trash').click();
    await confirmModal('Delete');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' }); // the last session gone: the picker closes

    await workbench.runCommand('Snowpea: Resume Session...');
    await page.locator('.notification-toast', { hasText: 'Snowpea: no stored sessions yet.' }).waitFor({ state: 'visible' });
    assert.equal(model.chatRequests().length, 2);
  });
});
