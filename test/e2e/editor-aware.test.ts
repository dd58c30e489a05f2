import * as assert from 'node:assert/strict';
import { startScriptedServer, type ScriptedServer } from '../fixtures/scripted-server';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';

/** The tool results the model received in one recorded request. */
function toolResults(model: ScriptedServer, index: number): string[] {
  return model.chatRequests()[index].body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
}

describe('e2e: read_file sees the editor (unsaved edits), and palette commands', function () {
  let model: ScriptedServer;
  before(async function () {
    model = await startScriptedServer({ models: ['scripted-model'] });
  });
  after(async function () {
    await model?.close();
  });

  const vscode = useVsCode(() => ({
    settings: { 'snowpea.model.baseUrl': model.baseUrl, 'snowpea.model.name': 'scripted-model' },
    workspaceFiles: { 'notes.txt': 'saved line\n' },
  }));

  async function typeInNotes(text: string): Promise<void> {
    const { workbench } = vscode();
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

  async function chat(prompt: string, answer: string): Promise<void> {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.composer).fill(prompt);
    await frame.locator(CHAT.composer).press('Enter');
    await frame.locator(CHAT.transcript).getByText(answer).waitFor({ state: 'visible' });
  }

  it('read_file returns the unsaved text; after another edit the re-read is content, not a stub', async function () {
    await typeInNotes('UNSAVED EDIT ONE');
    model.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path":"notes.txt"}' }] }, { text: 'first read done' });
    await chat('read notes.txt', 'first read done');
    const first = toolResults(model, 1);
    assert.match(first[0], /saved line/);
    assert.match(first[0], /UNSAVED EDIT ONE/, 'the editor text, unsaved edit included');

    await typeInNotes(' AND TWO');
    model.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path":"notes.txt"}' }] }, { text: 'second read done' });
    await chat('read it again', 'second read done');
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
  let model: ScriptedServer;
  before(async function () {
    model = await startScriptedServer({ models: ['scripted-model'] });
  });
  after(async function () {
    await model?.close();
  });

  const vscode = useVsCode(() => ({
    settings: { 'snowpea.model.baseUrl': model.baseUrl, 'snowpea.model.name': 'scripted-model' },
    trusted: false,
  }));

  it('refuses a write in an untrusted workspace', async function () {
    const { workbench } = vscode();
    model.enqueue({ toolCalls: [{ name: 'write_file', arguments: '{"path":"x.txt","content":"x"}' }] }, { text: 'write attempted' });
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.composer).fill('write x.txt');
    await frame.locator(CHAT.composer).press('Enter');
    await frame.locator(CHAT.transcript).getByText('write attempted').waitFor({ state: 'visible' });
    const result = toolResults(model, 1)[0];
    assert.match(result, /policy_blocked/);
    assert.match(result, /not trusted/);
  });
});
