import * as assert from 'node:assert/strict';
import { chatTurn, scriptedModelSettings, toolResults, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';
import type { Workbench } from './harness/workbench';

/** Opens notes.txt with Quick Open and types at its end (left unsaved). */
async function typeInNotes(workbench: Workbench, text: string): Promise<void> {
  const page = workbench.page;
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill('notes.txt');
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused', { hasText: 'notes.txt' }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-lines', { hasText: 'saved line' }).first().waitFor();
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await page.locator('.monaco-editor .view-lines', { hasText: text }).first().waitFor();
}

describe('e2e: read_file sees the editor (unsaved edits), and palette commands', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted()),
    workspaceFiles: { 'notes.txt': 'saved line\n' },
  }));

  it('read_file returns the unsaved text; after another edit the re-read is content, not a stub', async function () {
    const model = scripted();
    const { workbench } = vscode();
    await typeInNotes(workbench, 'UNSAVED EDIT ONE');
    model.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path":"notes.txt"}' }] }, { text: 'first read done' });
    await chatTurn(workbench, 'read notes.txt', 'first read done');
    const first = toolResults(model, 1);
    assert.match(first[0], /saved line/);
    assert.match(first[0], /UNSAVED EDIT ONE/, 'the editor text, unsaved edit included');

    await typeInNotes(workbench, ' AND TWO');
    model.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path":"notes.txt"}' }] }, { text: 'second read done' });
    await chatTurn(workbench, 'read it again', 'second read done');
    const second = toolResults(model, 3);
    const reread = second.at(-1)!;
    assert.doesNotMatch(reread, /^unchanged since/, 'an edit in the editor clears the guard record');
    assert.match(reread, /UNSAVED EDIT ONE AND TWO/);
  });

  it('Snowpea: Show Tools (JSON) opens the tools list as a JSON document', async function () {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    await workbench.runCommand('Snowpea: Show Tools (JSON)');
    // Monaco renders each line as its own element: wait for the ones we need.
    const editor = workbench.page.locator('.monaco-editor .view-lines');
    await editor.locator('.view-line', { hasText: '"name": "browser_click"' }).first().waitFor({ state: 'visible' });
    await editor.locator('.view-line', { hasText: '"deferred": true' }).first().waitFor({ state: 'visible' });
    assert.ok((await editor.locator('.view-line', { hasText: '"group": "browser"' }).count()) > 0);
  });
});

describe('e2e: Restricted Mode', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted()),
    trusted: false,
  }));

  it('refuses a write in an untrusted workspace', async function () {
    const model = scripted();
    const { workbench } = vscode();
    model.enqueue({ toolCalls: [{ name: 'write_file', arguments: '{"path":"x.txt","content":"x"}' }] }, { text: 'write attempted' });
    await chatTurn(workbench, 'write x.txt', 'write attempted');
    const result = toolResults(model, 1)[0];
    assert.match(result, /policy_blocked/);
    assert.match(result, /not trusted/);
  });
});

describe('e2e: a workspace opened through a symlink', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted()),
    workspaceFiles: { 'notes.txt': 'saved line\n' },
    openThroughSymlink: true,
  }));

  it('read_file still finds the open document (the core resolves real paths, the editor keeps the opened one)', async function () {
    const model = scripted();
    const { workbench } = vscode();
    await typeInNotes(workbench, 'UNSAVED BEHIND A LINK');
    model.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path":"notes.txt"}' }] }, { text: 'read through the link' });
    await chatTurn(workbench, 'read notes.txt', 'read through the link');
    assert.match(toolResults(model, 1)[0], /UNSAVED BEHIND A LINK/);
  });
});
