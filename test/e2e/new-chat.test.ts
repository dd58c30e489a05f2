import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: a chat turn against a scripted model, then Snowpea: New Chat', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('streams the reply into the transcript, and New Chat clears it', async function () {
    const model = scripted();
    const { workbench } = vscode();
    model.enqueue({ text: 'Hello from the scripted model.' });
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const transcript = frame.locator(CHAT.transcript);

    await frame.locator(CHAT.composer).fill('Say hello');
    await frame.locator(CHAT.composer).press('Enter');

    await transcript.getByText('Hello from the scripted model.').waitFor({ state: 'visible' });
    await transcript.getByText('Say hello').waitFor({ state: 'visible' });
    const sent = model.chatRequests();
    assert.equal(sent.length, 1);
    assert.equal(sent[0].body.model, 'scripted-model');
    assert.match(JSON.stringify(sent[0].body.messages.at(-1)), /Say hello/);

    await workbench.runCommand('Snowpea: New Chat');

    await transcript.getByText('Hello from the scripted model.').waitFor({ state: 'detached' });
    assert.equal(await transcript.getByText('Say hello').count(), 0);
    assert.equal(await frame.locator(CHAT.transcriptItem).count(), 0);
    assert.equal(model.chatRequests().length, 1);
  });
});
