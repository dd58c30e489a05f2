import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: Snowpea: Stop from the command palette', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('stops a streaming turn; the chat takes the next prompt', async function () {
    const model = scripted();
    const { workbench } = vscode();
    // Three SSE events (role chunk, two text deltas), then the stream stalls for two minutes.
    model.enqueue({ text: 'Partial answer: this stream is about to stall.', fault: { stallAfterChunks: 3, stallMs: 120_000 } });
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const transcript = frame.locator(CHAT.transcript);
    await frame.locator(CHAT.composer).fill('start a long answer');
    await frame.locator(CHAT.composer).press('Enter');
    await transcript.getByText(/^Partial answer/).waitFor({ state: 'visible' });

    await workbench.runCommand('Snowpea: Stop');

    await transcript.getByText('Stopped.').waitFor({ state: 'visible' });
    assert.equal(await transcript.getByText(/about to stall/).count(), 0, 'the stalled part never arrived');
    assert.equal(model.chatRequests().length, 1);

    // The turn really ended: a new prompt runs (a running turn would refuse it).
    model.enqueue({ text: 'Answer after the stop.' });
    await chatTurn(workbench, 'and now?', 'Answer after the stop.');
    assert.equal(model.chatRequests().length, 2);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
