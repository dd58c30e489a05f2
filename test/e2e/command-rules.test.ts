import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitUntil } from '../fixtures/eventually';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

const shell = (id: string, command: string) => ({ toolCalls: [{ id, name: 'shell', arguments: JSON.stringify({ command }) }] });
/** The tool result the model got for a call, from the request that followed it. */
function resultOf(body: { messages: Array<{ role: string; tool_call_id?: string; content: unknown }> }, id: string): string {
  const m = body.messages.find((x) => x.role === 'tool' && x.tool_call_id === id);
  return typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '');
}

describe('e2e: command rules on the shell card (issue 30 item 1)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: { ...scriptedModelSettings(scripted()), 'snowpea.approvals.commandRules': { allow: [], deny: ['rm'] } },
    workspaceFiles: { 'keep.txt': 'still here\n' },
  }));

  it('"Always allow `echo`" on the card lets later echo lines run without asking and is kept in the user settings; a chain with another command asks again; a deny rule refuses without a card', async function () {
    const model = scripted();
    const { workbench, dir } = vscode();
    const userRules = () => JSON.parse(fs.readFileSync(path.join(dir, 'user-data', 'User', 'settings.json'), 'utf8'))['snowpea.approvals.commandRules'];
    model.setResponder((_body, i) =>
      [
        shell('call_1', 'echo first'),
        shell('call_2', 'echo second'),
        shell('call_3', 'echo third && ls'),
        shell('call_4', 'rm -f keep.txt'),
        { text: 'Done with the commands.' },
      ][i] ?? { text: `reply ${i}` },
    );

    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.composer).fill('run a few commands');
    await frame.locator(CHAT.composer).press('Enter');

    // The first echo asks, and the card offers the command's prefix, not the whole tool.
    const card = frame.locator('.request-card[data-kind="approval"][data-tool="shell"]');
    const always = card.locator('button.request-always');
    await always.waitFor({ state: 'visible' });
    assert.match((await always.innerText()).replace(/\s+/g, ' '), /^Always allow echo$/);
    await always.click();

    // The chained line is not covered by the rule: it asks, with no "always" for a chain.
    const chain = card.filter({ hasText: 'third' });
    await chain.getByRole('button', { name: 'Deny' }).waitFor({ state: 'visible' });
    assert.equal(await chain.locator('button.request-always').count(), 0, 'a chained line offers no "always"');
    const asked = model.chatRequests().length;
    assert.equal(asked, 3, 'the second echo ran without a card: the third request is out when the chain asks');
    await chain.getByRole('button', { name: 'Deny' }).click();

    await frame.locator(CHAT.transcript).getByText('Done with the commands.').waitFor({ state: 'visible' });
    const bodies = model.chatRequests().map((r) => r.body);
    assert.match(resultOf(bodies[1], 'call_1'), /first/);
    assert.match(resultOf(bodies[2], 'call_2'), /second/, 'echo second ran, allowed by the rule the card added');
    assert.match(resultOf(bodies[3], 'call_3'), /the user declined .*; it did not run/, 'the denied chain did not run');
    assert.match(resultOf(bodies[4], 'call_4'), /matches the deny rule `rm`/);
    assert.equal(await frame.locator('.request-card').count(), 0, 'the deny rule refused rm without asking');
    // The card's answer outlives the window: it is in the user's settings, beside the deny rule they had.
    await waitUntil(() => userRules()?.allow?.includes('echo'), 'the rule in User/settings.json');
    assert.deepEqual(userRules(), { allow: ['echo'], deny: ['rm'] });
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
