import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);

describe('e2e: the chat runs as a custom agent (/agent)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted()),
    workspaceFiles: {
      'README.md': '# e2e workspace\n',
      '.claude/agents/reader.md': '---\nname: reader\ndescription: Reads and reports, never writes\ntools: Read, Grep\n---\nREADER-INSTRUCTIONS: report only.\n',
    },
  }));

  it('/agent lists the workspace\'s agent; /agent reader MESSAGE sends the message as the agent (its instructions, its tools only); the chip names it, and its close goes back to Snowpea', async function () {
    const model = scripted();
    const { workbench } = vscode();
    model.enqueue({ text: 'Reported as reader.' }, { text: 'Back as Snowpea.' });
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const composer = frame.locator(CHAT.composer);

    await composer.fill('/agent');
    const menu = frame.getByRole('listbox', { name: 'Commands' });
    await menu.getByRole('option', { name: /agent reader/ }).waitFor();
    await composer.fill('/agent reader what does the README say?');
    await composer.press('Escape');
    await composer.press('Enter');
    await frame.locator(CHAT.transcript).getByText('Reported as reader.').waitFor();
    const [first] = model.chatRequests().map((r) => r.body);
    assert.match(first.messages[0].content, /You run as the reader agent\. Its instructions:\nREADER-INSTRUCTIONS: report only\./);
    assert.equal(first.messages.at(-1).content, 'what does the README say?', 'the message after the name is what the model gets');
    const offered = toolNames(first);
    assert.ok(offered.includes('read_file') && !offered.includes('write_file') && !offered.includes('shell'), offered.join());

    const chip = frame.getByTestId('agent-chip');
    await chip.waitFor();
    assert.equal((await chip.innerText()).trim(), 'reader');
    await chip.getByRole('button', { name: 'Stop running as reader' }).click();
    await chip.waitFor({ state: 'detached' });
    await composer.fill('and now?');
    await composer.press('Enter');
    await frame.locator(CHAT.transcript).getByText('Back as Snowpea.').waitFor();
    const second = model.chatRequests().at(-1)!.body;
    assert.doesNotMatch(second.messages[0].content, /You run as the reader agent/);
    assert.ok(toolNames(second).includes('write_file'), 'Snowpea\'s own tools again');
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
