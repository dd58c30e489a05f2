import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';
import type { Workbench } from './harness/workbench';

/** CRLF, a BOM and a tab: restored byte for byte. */
const TRACKED = '\ufeffline one\r\n\tline two\r\n';

/** Opens the restore action of user message `turn` and picks one of its two choices. */
async function pickRestore(frame: Frame, turn: number, choice: 'Restore files to before this message' | 'Restore and rewind'): Promise<void> {
  await frame.getByRole('button', { name: `Restore checkpoint of message ${turn}` }).click();
  await frame.getByRole('group', { name: `Restore to before message ${turn}` }).getByRole('button', { name: choice }).click();
}

/** The modal's text once it shows; then presses `button` in it. */
async function answerModal(workbench: Workbench, button: string): Promise<string> {
  const dialog = workbench.page.locator('.monaco-dialog-box');
  const ok = dialog.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) });
  await ok.waitFor({ state: 'visible' });
  const text = await dialog.innerText();
  await ok.click();
  await ok.waitFor({ state: 'detached' });
  return text;
}

describe('e2e: checkpoints, Restore and Restore and rewind in the chat (issue 19)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted(), { 'snowpea.approvals.autoApprove': ['exec'] }),
    workspaceFiles: { 'tracked.txt': TRACKED, 'README.md': '# e2e\n' },
  }));

  it('issue 19 checkpoints: Restore after a shell `rm` of a tracked file brings it back byte for byte, after a modal that lists it', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    const tracked = path.join(workspace, 'tracked.txt');
    const before = fs.readFileSync(tracked);
    model.enqueue({ toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: 'rm tracked.txt' }) }] }, { text: 'removed the file' });
    await chatTurn(workbench, 'delete tracked.txt', 'removed the file');
    assert.equal(fs.existsSync(tracked), false, 'the shell removed it');

    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await pickRestore(frame, 1, 'Restore files to before this message');
    const asked = await answerModal(workbench, 'Restore');
    assert.match(asked, /Restore 1 file to how they were before message 1\?/);
    assert.match(asked, /tracked\.txt \(deleted since: recreated\)/);
    await workbench.page.locator('.notification-toast', { hasText: 'Snowpea: restored 1 file to before message 1.' }).waitFor();
    assert.deepEqual(fs.readFileSync(tracked), before, 'byte for byte: BOM, CRLF and tab');
    assert.equal(await frame.locator(CHAT.transcript).getByText('removed the file').count(), 1, 'restoring files leaves the conversation as it was');
  });

  it('issue 19 rewind: Restore and rewind puts the files back, hides the later messages, returns the message to the composer, and the next request no longer carries them', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    const tracked = path.join(workspace, 'tracked.txt');
    const before = fs.readFileSync(tracked);
    await workbench.runCommand('Snowpea: New Chat');
    model.enqueue(
      { text: 'first answer' },
      { toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: 'printf changed > tracked.txt' }) }] },
      { text: 'changed the file' },
    );
    await chatTurn(workbench, 'first ask', 'first answer');
    await chatTurn(workbench, 'change tracked.txt', 'changed the file');
    assert.equal(fs.readFileSync(tracked, 'utf8'), 'changed');

    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const transcript = frame.locator(CHAT.transcript);
    await pickRestore(frame, 2, 'Restore and rewind');
    const asked = await answerModal(workbench, 'Restore and Rewind');
    assert.match(asked, /Restore 1 file to how they were before message 2, and rewind the conversation to before it\?/);
    assert.match(asked, /tracked\.txt \(modified/);
    await transcript.getByText('changed the file').waitFor({ state: 'detached' });
    assert.deepEqual(fs.readFileSync(tracked), before, 'the file is back');
    assert.equal(await transcript.getByText('change tracked.txt').count(), 0, 'the rewound message left the chat');
    assert.equal(await transcript.getByText('first answer').count(), 1, 'the messages before it stay');
    assert.equal(await frame.locator(CHAT.composer).inputValue(), 'change tracked.txt', 'the message is back in the composer');

    const sentBefore = model.chatRequests().length;
    model.enqueue({ text: 'went another way' });
    await chatTurn(workbench, 'do something else', 'went another way');
    const next = JSON.stringify(model.chatRequests()[sentBefore].body.messages);
    assert.match(next, /first ask/);
    assert.match(next, /first answer/);
    assert.match(next, /do something else/);
    assert.doesNotMatch(next, /change tracked\.txt/, 'the rewound message is not sent');
    assert.doesNotMatch(next, /changed the file|printf changed/, 'nor what followed it');

    // The new message is the chat's third (the rewound one still counts); nothing changed since it.
    await pickRestore(frame, 3, 'Restore files to before this message');
    await workbench.page.locator('.notification-toast', { hasText: 'Snowpea: nothing to restore; no file has changed since before message 3.' }).waitFor();
    assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0, 'nothing to confirm');
  });
});
