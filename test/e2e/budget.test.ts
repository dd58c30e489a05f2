import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

/**
 * Issue 30 item 9: a money budget. The scripted model is priced by the user's settings: output at
 * $100 a million tokens, input at a cent, caching at a tenth. Its first round answers 10,000
 * output tokens ($1.00), so the second request is expected to cost about as much (the output so
 * far, averaged) and would pass the turn's budget of $1.50: the turn pauses in the chat before
 * sending it, and goes on once the user raises the budget.
 */
describe('e2e: the money budget pauses a turn and goes on after a raise (issue 30)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted(), {
      'snowpea.agent.budget': { turn: 1.5, session: null },
      'snowpea.model.inputPrice': 0.01,
      'snowpea.model.outputPrice': 100,
      'snowpea.model.cacheDiscount': 0.1,
    }),
    workspaceFiles: { 'notes.md': '# Notes\n\nBudget me.\n' },
  }));

  it('pauses before the request that would pass the budget, shows its expected cost and cache hit, and continues after Raise', async function () {
    const model = scripted();
    const { workbench } = vscode();
    model.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: 'notes.md' }) }], usage: { completion_tokens: 10_000 } },
      { text: 'Read the notes within the raised budget.' },
    );
    await workbench.openSnowpea();
    await workbench.expandView('Chat');
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.composer).fill('read my notes');
    await frame.locator(CHAT.composer).press('Enter');

    const card = frame.locator('[data-kind="budget"]');
    await card.waitFor({ state: 'visible' });
    const text = await card.locator('[data-kind="budget-text"]').innerText();
    assert.match(text, /^The next request to scripted-model \(~\$1\.\d{2}, \d+% of its prompt expected from the cache\) would pass this turn's budget of \$1\.50 \(\$1\.\d{2} spent\)\.$/);
    const cached = Number(/(\d+)% of its prompt/.exec(text)![1]);
    assert.ok(cached > 50, `most of the second request shares the first's prefix (${text})`);
    assert.equal(model.chatRequests().length, 1, 'the request over the budget waits for the answer');
    // The meter shows that request's expected cost before it is sent.
    const meter = frame.locator('[data-kind="meter-next"]');
    await meter.waitFor({ state: 'visible' });
    assert.match(await meter.innerText(), /^next ~\$1\.\d{2} \(\d+% cached\)$/);

    await card.getByRole('textbox', { name: 'New turn budget' }).fill('5');
    await card.getByRole('button', { name: 'Raise and continue' }).click();

    await frame.locator(CHAT.transcript).getByText('Read the notes within the raised budget.').waitFor({ state: 'visible' });
    assert.equal(await card.count(), 0);
    assert.equal(model.chatRequests().length, 2);
    assert.deepEqual(await workbench.errorNotificationTexts(), []);
  });
});
