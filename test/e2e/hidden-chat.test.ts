import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHAT } from './harness/selectors';
import { scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';
import { waitUntil } from '../fixtures/eventually';

describe('e2e: the chat hidden while a turn runs', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('an approval asked while the chat view is hidden is shown when it comes back, and answering it finishes the turn', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    // Some text, a four-second stall (the view is hidden meanwhile), then a write that needs approval.
    model.enqueue(
      { text: 'Writing the file now.', toolCalls: [{ name: 'write_file', arguments: '{"path":"from-hidden.txt","content":"written\\n"}' }], fault: { stallAfterChunks: 3, stallMs: 4_000 } },
      { text: 'The file is written.' },
    );
    await workbench.openSnowpea();
    let frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.composer).fill('write from-hidden.txt');
    await frame.locator(CHAT.composer).press('Enter');
    await frame.locator(CHAT.transcript).getByText(/^Writing/).waitFor({ state: 'visible' });

    await workbench.showContainer('Explorer'); // the chat's webview is gone while hidden
    await waitUntil(() => model.chatsAnswered() >= 1, 'the scripted reply to finish', 30_000, 100);

    await workbench.openSnowpea();
    frame = await workbench.findWebviewFrame('.request-card[data-kind="approval"]');
    const card = frame.locator('.request-card[data-kind="approval"][data-tool="write_file"]');
    await card.waitFor({ state: 'visible' });
    await card.getByRole('button', { name: 'Accept', exact: true }).click(); // a write's card: Accept (issue 19)
    await frame.locator(CHAT.transcript).getByText('The file is written.').waitFor({ state: 'visible' });
    assert.equal(fs.readFileSync(path.join(workspace, 'from-hidden.txt'), 'utf8'), 'written\n');
    // The round's text shows once, not twice (stored message plus the streamed copy).
    assert.equal(await frame.locator(CHAT.transcript).getByText('Writing the file now.').count(), 1);
  });
});
