import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import type { ScriptedServer } from '../fixtures/scripted-server';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';
import type { Workbench } from './harness/workbench';

/** Sends a prompt without waiting for the answer (the turn stops at an approval). */
async function sendPrompt(workbench: Workbench, prompt: string): Promise<Frame> {
  await workbench.openSnowpea();
  const frame = await workbench.findWebviewFrame(CHAT.composer);
  await frame.locator(CHAT.composer).fill(prompt);
  await frame.locator(CHAT.composer).press('Enter');
  return frame;
}

/** The tool results of the latest request the scripted model received. */
function lastToolResult(model: ScriptedServer): string {
  const messages = model.chatRequests().at(-1)!.body.messages as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === 'tool').at(-1)!.content;
}

const diffEditor = (w: Workbench) => w.page.locator('.monaco-diff-editor').first();
const titleAction = (w: Workbench, title: string) => w.page.locator(`.editor-actions .action-label[aria-label^="${title}"]`).first();

describe('e2e: review before it lands (issue 19)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted()),
    workspaceFiles: { 'greet.ts': "export const greeting = 'hello';\n", 'keep.ts': 'export const n = 1;\n', 'other.ts': 'const a = 1;\n', 'closed.ts': 'const c = 1;\n', 'pair.ts': 'one\ntwo\nthree\nfour\n' },
  }));

  it('issue 19 review: an approval opens a diff of the proposal; Accept in its title bar writes it', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    model.enqueue({ toolCalls: [{ name: 'edit_file', arguments: JSON.stringify({ path: 'greet.ts', old_string: "'hello'", new_string: "'hi'" }) }] }, { text: 'edit accepted' });
    const frame = await sendPrompt(workbench, 'change the greeting');
    await diffEditor(workbench).waitFor({ state: 'visible' });
    await workbench.page.locator('.tab', { hasText: "greet.ts (current ↔ Snowpea's proposal)" }).waitFor();
    await diffEditor(workbench).locator('.editor.modified .view-line', { hasText: "'hi'" }).waitFor();
    const card = frame.locator('[data-kind="approval"]');
    assert.match(await card.locator('[data-kind="proposal"]').innerText(), /greet\.ts\s*\+1\s*−1/);
    await titleAction(workbench, 'Accept Proposed Edit').click();
    await frame.locator(CHAT.transcript).getByText('edit accepted').waitFor();
    assert.equal(fs.readFileSync(path.join(workspace, 'greet.ts'), 'utf8'), "export const greeting = 'hi';\n");
    assert.equal(await card.count(), 0, 'the card went with the diff');
    assert.equal(await diffEditor(workbench).count(), 0, 'the diff closed');
    assert.match(lastToolResult(model), /^edited greet\.ts/);
  });

  it('issue 19 review: a proposal the user changed before Accept lands as changed, and the model is told', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    model.enqueue({ toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'keep.ts', content: 'export const n = 2;\n' }) }] }, { text: 'write done' });
    const frame = await sendPrompt(workbench, 'bump n');
    const modified = diffEditor(workbench).locator('.editor.modified');
    await modified.locator('.view-line', { hasText: 'export const n = 2;' }).waitFor();
    await modified.locator('.view-line', { hasText: 'export const n = 2;' }).click();
    await workbench.page.keyboard.press('End');
    await workbench.page.keyboard.type(' // reviewed');
    await modified.locator('.view-line', { hasText: '// reviewed' }).waitFor();
    await frame.locator('[data-kind="approval"]').getByRole('button', { name: 'Accept', exact: true }).click();
    await frame.locator(CHAT.transcript).getByText('write done').waitFor();
    assert.equal(fs.readFileSync(path.join(workspace, 'keep.ts'), 'utf8'), 'export const n = 2; // reviewed\n');
    const told = lastToolResult(model);
    assert.match(told, /The user changed your edit of keep\.ts before accepting it/);
    assert.match(told, /-export const n = 2;\n\+export const n = 2; \/\/ reviewed/);
    assert.equal(await diffEditor(workbench).count(), 0, 'answering on the card closed the diff');
  });

  it('issue 30 hunks: Reject Proposed Hunk at Cursor takes one of two proposed hunks back; Accept writes the other only', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    model.enqueue({ toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'pair.ts', content: 'ONE\ntwo\nthree\nFOUR\n' }) }] }, { text: 'pair written' });
    const frame = await sendPrompt(workbench, 'shout the ends');
    const modified = diffEditor(workbench).locator('.editor.modified');
    // Playwright matches a string hasText without case; the hunks differ only in case, so match by regex.
    await modified.locator('.view-line', { hasText: /FOUR/ }).waitFor();
    await modified.locator('.view-line', { hasText: /ONE/ }).click();
    await titleAction(workbench, 'Reject Proposed Hunk at Cursor').click();
    await modified.locator('.view-line', { hasText: /ONE/ }).waitFor({ state: 'detached' });
    await modified.locator('.view-line', { hasText: /^\s*one\s*$/ }).waitFor();
    assert.equal(await modified.locator('.view-line', { hasText: /FOUR/ }).count(), 1, 'the other hunk is still proposed');
    assert.equal(fs.readFileSync(path.join(workspace, 'pair.ts'), 'utf8'), 'one\ntwo\nthree\nfour\n', 'nothing written before Accept');
    await titleAction(workbench, 'Accept Proposed Edit').click();
    await frame.locator(CHAT.transcript).getByText('pair written').waitFor();
    assert.equal(fs.readFileSync(path.join(workspace, 'pair.ts'), 'utf8'), 'one\ntwo\nthree\nFOUR\n');
    const told = lastToolResult(model);
    assert.match(told, /The user changed your edit of pair\.ts before accepting it/);
    assert.match(told, /-ONE\n\+one/);
  });

  it('issue 19 review: Reject leaves the file alone and the model is told', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    model.enqueue({ toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'other.ts', content: 'gone\n' }) }] }, { text: 'write rejected' });
    await sendPrompt(workbench, 'overwrite other.ts');
    await diffEditor(workbench).locator('.editor.modified .view-line', { hasText: 'gone' }).waitFor();
    await titleAction(workbench, 'Reject Proposed Edit').click();
    await chatTurnEnd(workbench, 'write rejected');
    assert.equal(fs.readFileSync(path.join(workspace, 'other.ts'), 'utf8'), 'const a = 1;\n');
    assert.match(lastToolResult(model), /^error \(denied\): the user declined write other\.ts/);
  });

  it('issue 19 review: closing the diff rejects the edit and takes the card away', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    model.enqueue({ toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'closed.ts', content: 'closed\n' }) }] }, { text: 'diff closed' });
    const frame = await sendPrompt(workbench, 'overwrite closed.ts');
    await frame.locator('[data-kind="approval"]').waitFor();
    const tab = workbench.page.locator('.tab', { hasText: "closed.ts (current ↔ Snowpea's proposal)" });
    await tab.waitFor();
    await tab.locator('.tab-actions .action-label').click();
    await chatTurnEnd(workbench, 'diff closed');
    assert.equal(await frame.locator('[data-kind="approval"]').count(), 0);
    assert.equal(fs.readFileSync(path.join(workspace, 'closed.ts'), 'utf8'), 'const c = 1;\n');
    assert.match(lastToolResult(model), /^error \(denied\)/);
  });
});

/** Opens `file` with Quick Open and types `text` at its end, leaving it unsaved. */
async function typeUnsaved(workbench: Workbench, file: string, firstLine: string, text: string): Promise<void> {
  const page = workbench.page;
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(file);
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused', { hasText: file }).waitFor();
  await page.keyboard.press('Enter');
  const lines = page.locator('.monaco-editor .view-lines', { hasText: firstLine }).first();
  await lines.waitFor();
  await lines.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await page.locator('.monaco-editor .view-lines', { hasText: text }).first().waitFor();
}

async function chatTurnEnd(workbench: Workbench, answer: string): Promise<void> {
  const frame = await workbench.findWebviewFrame(CHAT.composer);
  await frame.locator(CHAT.transcript).getByText(answer).waitFor();
}

describe('e2e: keep or undo auto-approved edits (issue 19)', function () {
  const scripted = useScriptedModel();
  // CRLF line endings and a UTF-8 BOM: Undo must put these bytes back exactly.
  const original = Buffer.from('\ufeffline one\r\nline two\r\n', 'utf8');
  const vscode = useVsCode(() => ({
    // Auto save off: the unsaved text must stay unsaved until the agent's write (code-server saves after a delay).
    settings: scriptedModelSettings(scripted(), { 'snowpea.approvals.autoApprove': ['write'], 'files.autoSave': 'off' }),
    workspaceFiles: { 'README.md': '# e2e\n', 'notes.txt': 'saved line\n' },
  }));

  it('issue 19 keep or undo: the turn lists its changed files with Keep/Undo; Undo restores bytes exactly and deletes a created file', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    const crlf = path.join(workspace, 'crlf.txt');
    fs.writeFileSync(crlf, original);
    model.enqueue(
      {
        toolCalls: [
          { name: 'edit_file', arguments: JSON.stringify({ path: 'crlf.txt', old_string: 'line two', new_string: 'line 2' }) },
          { name: 'write_file', arguments: JSON.stringify({ path: 'made.txt', content: 'new file\n' }) },
          { name: 'edit_file', arguments: JSON.stringify({ path: 'README.md', old_string: '# e2e', new_string: '# kept' }) },
        ],
      },
      { text: 'three edits done' },
    );
    await chatTurn(workbench, 'edit three files', 'three edits done');
    const results = (model.chatRequests().at(-1)!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').map((m) => m.content);
    assert.deepEqual(results.map((r) => r.split(':')[0]), ['edited crlf.txt', 'created made.txt (1 line)', 'edited README.md']);
    assert.equal(fs.readFileSync(crlf, 'utf8'), '\ufeffline one\r\nline 2\r\n');
    assert.equal(await diffEditor(workbench).count(), 0, 'auto-approved edits open no review');
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const list = frame.getByRole('region', { name: 'Files changed this turn' });
    await list.waitFor();
    assert.match(await list.innerText(), /3 files changed/);
    assert.match(await list.locator('[data-path="crlf.txt"]').innerText(), /\+1\s*−1/);

    await list.getByRole('button', { name: 'Keep README.md' }).click();
    await list.locator('[data-path="README.md"]').waitFor({ state: 'detached' });
    await list.getByRole('button', { name: 'Undo crlf.txt' }).click();
    await list.locator('[data-path="crlf.txt"]').waitFor({ state: 'detached' });
    assert.deepEqual(fs.readFileSync(crlf), original, 'byte for byte: BOM and CRLF');
    await list.getByRole('button', { name: 'Undo all' }).click();
    await list.waitFor({ state: 'detached' });
    assert.equal(fs.existsSync(path.join(workspace, 'made.txt')), false, 'the file the agent created is gone');
    assert.equal(fs.readFileSync(path.join(workspace, 'README.md'), 'utf8'), '# kept\n', 'Keep left the change');
  });

  it('issue 19: a write to a file with unsaved edits goes into the editor, not over them on disk; its lines are marked; Undo brings the unsaved text back', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    await typeUnsaved(workbench, 'notes.txt', 'saved line', 'MY UNSAVED WORDS');
    model.enqueue(
      { toolCalls: [{ name: 'edit_file', arguments: JSON.stringify({ path: 'notes.txt', old_string: 'saved line', new_string: 'AGENT LINE' }) }] },
      { text: 'notes edited' },
    );
    await chatTurn(workbench, 'edit notes', 'notes edited');
    // The agent's edit went into the document that holds the unsaved text.
    await workbench.page.locator('.monaco-editor .view-lines', { hasText: 'AGENT LINE' }).filter({ hasText: 'MY UNSAVED WORDS' }).first().waitFor();
    assert.equal(fs.readFileSync(path.join(workspace, 'notes.txt'), 'utf8'), 'saved line\n', 'nothing unsaved reached the disk');
    // The changed line carries Snowpea's line mark (a whole-line decoration); Undo clears it.
    const marks = workbench.page.locator('.monaco-editor .view-overlays .cdr');
    await marks.first().waitFor();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const list = frame.getByRole('region', { name: 'Files changed this turn' });
    await list.locator('[data-path="notes.txt"]').waitFor();
    await list.getByRole('button', { name: 'Undo notes.txt' }).click();
    await list.waitFor({ state: 'detached' });
    await workbench.page.locator('.monaco-editor .view-lines', { hasText: 'saved line' }).filter({ hasText: 'MY UNSAVED WORDS' }).first().waitFor();
    assert.equal(await workbench.page.locator('.monaco-editor .view-lines', { hasText: 'AGENT LINE' }).count(), 0);
    await marks.first().waitFor({ state: 'detached' });
    assert.equal(fs.readFileSync(path.join(workspace, 'notes.txt'), 'utf8'), 'saved line\n');
  });
});
