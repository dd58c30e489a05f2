import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { summaryInstruction } from '../../extension/core/context/compaction/instruction';
import { CHAT } from './harness/selectors';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

/**
 * Waits for a notification toast, then closes it (toasts pile up and hide the next one's buttons).
 * The close button shows only while the toast is hovered, and VS Code may hide an information toast
 * by itself meanwhile, so the click is sent to the button directly and a toast that is already
 * gone counts as closed.
 */
async function dismiss(toast: Locator): Promise<void> {
  await toast.waitFor({ state: 'visible' });
  await toast
    .locator('.codicon-notifications-clear')
    .dispatchEvent('click', undefined, { timeout: 5_000 })
    .catch(() => undefined);
  await toast.waitFor({ state: 'detached' });
}

describe('e2e: /compact in the chat shows the divider and the summary (issue 20)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('issue 20: Compact Conversation is refused with no conversation and during a turn, Cancel stops it, /compact with focus shows the divider and the summary, a message sent meanwhile waits for it, Resume replays the divider', async function () {
    const model = scripted();
    const { workbench, page } = vscode();
    await workbench.openSnowpea();

    await workbench.runCommand('Snowpea: Compact Conversation');
    await dismiss(page.locator('.notification-toast', { hasText: 'There is no conversation to compact yet.' }));
    assert.equal(model.chatRequests().length, 0);

    model.enqueue({ text: 'The API has two endpoints.' }, { text: 'Login goes through /session.' }, { text: 'not reached: the turn is stopped', fault: { firstByteDelayMs: 60_000 } });
    await chatTurn(workbench, 'describe the API', 'The API has two endpoints.');
    await chatTurn(workbench, 'how does login work?', 'Login goes through /session.');
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    // The meter: how full the window is, and at what fill the conversation compacts.
    await frame.locator('[data-kind="meter"]', { hasText: /^\d+% of \d+k · compacts at \d+% · / }).waitFor({ state: 'attached' });
    // The second turn has ended (its checkpoint recorded): the chat sends again.
    await frame.getByRole('button', { name: 'Send' }).waitFor({ state: 'visible' });
    // While a turn runs, compacting is refused with what to do instead (then the turn is stopped).
    await frame.locator(CHAT.composer).fill('where are the tests?');
    await frame.locator(CHAT.composer).press('Enter');
    // Only once the turn shows as running: a command that reached the host before the message
    // would compact instead of being refused.
    await frame.getByRole('button', { name: 'Stop' }).waitFor({ state: 'visible' });
    await workbench.runCommand('Snowpea: Compact Conversation');
    await dismiss(page.locator('.notification-toast', { hasText: 'wait for the turn to finish or stop it' }));
    await frame.getByRole('button', { name: 'Stop' }).click();
    await frame.locator(`${CHAT.transcript} [data-kind="notice"]`, { hasText: 'Stopped.' }).waitFor({ state: 'visible' });
    assert.equal(model.chatRequests().length, 3, 'the refused compaction sent no request');

    // The progress notification's Cancel stops the summary request; nothing changes.
    const progress = page.locator('.notification-toast', { hasText: 'Snowpea: compacting the conversation' });
    // The refused attempt's progress notification may still be on screen: its Cancel would cancel nothing.
    await progress.waitFor({ state: 'detached' });
    model.enqueue({ text: 'never shown', fault: { firstByteDelayMs: 30_000 } });
    await frame.locator(CHAT.composer).fill('/compact');
    await frame.locator(CHAT.composer).press('Enter');
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await dismiss(page.locator('.notification-toast', { hasText: 'compaction cancelled' }));
    assert.equal(await frame.locator(`${CHAT.transcript} [data-kind="compaction"]`).count(), 0);

    // A message sent while the summary is written waits for it, and its turn carries the summary.
    model.enqueue({ text: '## Task\nDescribe the **API** (SUMMARY-E2E).\n\n## Next\nAnswer follow-ups.', fault: { firstByteDelayMs: 5_000 } }, { text: 'Still here.' });
    await frame.locator(CHAT.composer).fill('/compact keep the API design');
    await frame.locator(CHAT.composer).press('Enter');
    await progress.waitFor({ state: 'visible' });
    await frame.locator(CHAT.composer).fill('anything else?');
    await frame.locator(CHAT.composer).press('Enter');

    const divider = frame.locator(`${CHAT.transcript} [data-kind="compaction"]`);
    await divider.waitFor({ state: 'visible' });
    await frame.locator(CHAT.transcript).getByText('Still here.').waitFor({ state: 'visible' });
    assert.match(await divider.locator('.compaction-line').innerText(), /^Conversation compacted: \d+k? → \d+k? tokens$/);
    await divider.locator('.compaction-line').click();
    const summary = divider.getByRole('region', { name: 'Summary of the earlier conversation' });
    await summary.getByText('SUMMARY-E2E', { exact: false }).waitFor({ state: 'visible' });
    assert.equal(await summary.locator('strong').innerText(), 'API', 'the summary is rendered as Markdown');
    assert.match(await summary.innerText(), /Asked to keep: keep the API design/);

    // The summary request was the session's own request with the compaction instruction last.
    const requests = model.chatRequests();
    assert.equal(requests.length, 6);
    assert.equal(requests[3].body.messages.at(-1).content, summaryInstruction(), 'the cancelled request asked for a summary too');
    const last = requests[4].body.messages.at(-1);
    assert.equal(last.role, 'user');
    assert.equal(last.content, summaryInstruction('keep the API design'));
    assert.equal(await frame.locator(`${CHAT.transcript} [data-kind="user"]`).count(), 4, '/compact is not a message');

    // The held turn carries the summary in place of the rounds it stands for.
    const next = JSON.stringify(model.chatRequests()[5].body.messages);
    assert.ok(next.includes('SUMMARY-E2E'));
    assert.ok(next.includes('"describe the API"'), 'the user\'s own first message is kept word for word (red team N10)');
    assert.ok(!next.includes('The API has two endpoints.'), 'the first answer was summarized');

    // New Chat, then Resume: the replayed chat shows the same divider at the same place.
    // (The live chat's "Stopped." line is not stored, so it is not replayed.)
    const kinds = async () => (await frame.locator(`${CHAT.transcript} .transcript-row`).evaluateAll((rows) => rows.map((r) => r.querySelector('[data-kind]')?.getAttribute('data-kind')))).filter((k) => k !== 'notice');
    const before = await kinds();
    const line = await divider.locator('.compaction-line').innerText();
    await workbench.runCommand('Snowpea: New Chat');
    await divider.waitFor({ state: 'detached' });
    await workbench.runCommandKeepingInput('Snowpea: Resume Session...');
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: 'describe the API' }) }).first();
    await row.click();
    await divider.waitFor({ state: 'visible' });
    assert.equal(await divider.locator('.compaction-line').innerText(), line);
    assert.deepEqual(await kinds(), before);
    assert.deepEqual(before, ['user', 'assistant', 'user', 'assistant', 'user', 'compaction', 'user', 'assistant'], 'the divider between the stopped turn and the next prompt');
  });
});
