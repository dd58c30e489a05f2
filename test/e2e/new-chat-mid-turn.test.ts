import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHAT } from './harness/selectors';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';
import { waitUntil } from '../fixtures/eventually';

describe('e2e: New Chat while a turn runs (issue 18, sessions and the chat\'s lifetime)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('stops the running turn first: the new chat starts idle, its first turn completes, and Stop still works', async function () {
    const model = scripted();
    const { workbench } = vscode();
    // Three SSE events, then the stream stalls for two minutes: a turn that is still running.
    model.enqueue({ text: 'Partial answer: this stream is about to stall.', fault: { stallAfterChunks: 3, stallMs: 120_000 } });
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const transcript = frame.locator(CHAT.transcript);
    const stop = frame.getByRole('button', { name: 'Stop' });
    const send = frame.getByRole('button', { name: 'Send' });
    await frame.locator(CHAT.composer).fill('start a long answer');
    await frame.locator(CHAT.composer).press('Enter');
    await transcript.getByText(/^Partial answer/).waitFor({ state: 'visible' });
    await stop.waitFor({ state: 'visible' });

    await workbench.runCommand('Snowpea: New Chat');

    // The old chat is gone and the new one is idle: Send, not a Stop stuck from the old turn.
    await transcript.getByText(/^Partial answer/).waitFor({ state: 'detached' });
    await send.waitFor({ state: 'visible' });
    assert.equal(await stop.count(), 0, 'no Stop left over from the stopped turn');
    assert.equal(await frame.locator(CHAT.transcriptItem).count(), 0);

    // The new chat's first message runs (it is not told a turn is still running) and completes.
    model.enqueue({ text: 'Answer in the new chat.' });
    await chatTurn(workbench, 'hello again', 'Answer in the new chat.');
    assert.equal(await transcript.getByText(/already running/).count(), 0, 'the first message was not refused');
    await send.waitFor({ state: 'visible' });
    assert.equal(model.chatRequests().length, 2);
    const second = JSON.stringify(model.chatRequests()[1].body.messages);
    assert.match(second, /hello again/);
    assert.doesNotMatch(second, /start a long answer/, 'the new chat is a new session');

    // Stop works in the new chat: a stalling turn, the Stop button, then one more turn.
    model.enqueue({ text: 'Second partial: this one stalls as well.', fault: { stallAfterChunks: 3, stallMs: 120_000 } });
    await frame.locator(CHAT.composer).fill('another long answer');
    await frame.locator(CHAT.composer).press('Enter');
    await transcript.getByText(/^Second partial/).waitFor({ state: 'visible' });
    await stop.click();
    await transcript.getByText('Stopped.').waitFor({ state: 'visible' });
    await send.waitFor({ state: 'visible' });
    model.enqueue({ text: 'Answer after the stop.' });
    await chatTurn(workbench, 'and now?', 'Answer after the stop.');
    assert.equal(model.chatRequests().length, 4);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});

describe('e2e: New Chat while a shell command runs (issue 18, sessions and the chat\'s lifetime)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted(), { 'snowpea.approvals.autoApprove': ['shell'] }) }));

  it('stops the turn and its command (one that ignores SIGTERM) first: the new chat is idle and its first turn runs', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    // The command ignores SIGTERM: stopping it takes the kill's grace period (SIGKILL after it).
    model.enqueue({ toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: "trap '' TERM; touch started.txt; sleep 60" }) }] });
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const transcript = frame.locator(CHAT.transcript);
    const stop = frame.getByRole('button', { name: 'Stop' });
    const send = frame.getByRole('button', { name: 'Send' });
    await frame.locator(CHAT.composer).fill('run the slow command');
    await frame.locator(CHAT.composer).press('Enter');
    const started = path.join(workspace, 'started.txt');
    await waitUntil(() => fs.existsSync(started), 'the command to start', 60_000, 100);
    await stop.waitFor({ state: 'visible' });

    await workbench.runCommand('Snowpea: New Chat');

    await transcript.getByText('run the slow command').waitFor({ state: 'detached' });
    await send.waitFor({ state: 'visible' });
    assert.equal(await stop.count(), 0, 'no Stop stuck from the stopped turn');

    model.enqueue({ text: 'Answer in the new chat.' });
    await chatTurn(workbench, 'hello again', 'Answer in the new chat.');
    assert.equal(await transcript.getByText(/already running/).count(), 0, 'the first message was not refused');
    assert.equal(model.chatRequests().length, 2);
    assert.doesNotMatch(JSON.stringify(model.chatRequests()[1].body.messages), /run the slow command/, 'the new chat is a new session');
    await send.waitFor({ state: 'visible' });
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
