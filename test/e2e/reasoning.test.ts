import * as assert from 'node:assert/strict';
import { recordedCase } from '../fixtures/provider-cases';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: a tool-using turn on recorded DeepSeek thinking responses', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('shows the reasoning collapsed above each answer, the answer alone, and sends the reasoning back in the tool turn', async function () {
    const model = scripted();
    const { workbench } = vscode();
    const tool = recordedCase('deepseek', 'tool-call-cache-hit-stream');
    const answer = recordedCase('deepseek', 'reasoning-content-stream');
    model.enqueue(...tool.steps, ...answer.steps);
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const transcript = frame.locator(CHAT.transcript);

    await frame.locator(CHAT.composer).fill('What is the weather in San Francisco?');
    await frame.locator(CHAT.composer).press('Enter');

    await transcript.locator('.markdown').getByText('Hello there!', { exact: false }).waitFor({ state: 'visible' });
    const thoughts = transcript.locator('[data-kind="reasoning"]');
    assert.equal(await thoughts.count(), 2, 'one collapsed reasoning per round');
    assert.match(await thoughts.nth(1).locator('summary').innerText(), /Thought/);
    assert.equal(await thoughts.nth(1).locator('.reasoning-text').isVisible(), false, 'collapsed until opened');
    const answerText = await transcript.locator('[data-kind="assistant"]').last().locator('.markdown').innerText();
    assert.match(answerText, /Hello there!/);
    assert.ok(!answerText.includes('Hmm, the user'), 'the reasoning is not part of the answer');
    await thoughts.nth(1).locator('summary').click();
    await thoughts.nth(1).locator('.reasoning-text').getByText('Hmm, the user just said', { exact: false }).waitFor({ state: 'visible' });

    const sent = model.chatRequests();
    assert.equal(sent.length, 2);
    const assistant = sent[1].body.messages.find((m: any) => m.role === 'assistant');
    assert.equal(assistant.reasoning_content, tool.expect.reasoning);
  });
});
