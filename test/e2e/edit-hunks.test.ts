import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatTurn, scriptedModelSettings, useScriptedModel } from './harness/scripted-model';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';

describe('e2e: keep or undo one hunk of the turn\'s edits (issue 30)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted(), { 'snowpea.approvals.autoApprove': ['write'], 'files.autoSave': 'off' }),
    workspaceFiles: { 'list.txt': 'alpha\nbeta\ngamma\ndelta\n' },
  }));

  it('issue 30 hunks: Undo of one of two hunks in the chat puts its old line back on disk; Keep Hunk at Cursor in the diff decides the other and the file leaves the list', async function () {
    const model = scripted();
    const { workbench, workspace } = vscode();
    const file = path.join(workspace, 'list.txt');
    model.enqueue(
      {
        toolCalls: [
          { name: 'edit_file', arguments: JSON.stringify({ path: 'list.txt', old_string: 'alpha', new_string: 'ALPHA' }) },
          { name: 'edit_file', arguments: JSON.stringify({ path: 'list.txt', old_string: 'delta', new_string: 'DELTA' }) },
        ],
      },
      { text: 'two lines edited' },
    );
    await chatTurn(workbench, 'shout two lines', 'two lines edited');
    assert.equal(fs.readFileSync(file, 'utf8'), 'ALPHA\nbeta\ngamma\nDELTA\n');

    const frame = await workbench.findWebviewFrame(CHAT.composer);
    const list = frame.getByRole('region', { name: 'Files changed this turn' });
    await list.getByRole('button', { name: 'Show the 2 hunks of list.txt' }).click();
    const hunks = list.getByRole('list', { name: 'Hunks of list.txt' });
    assert.match(await hunks.innerText(), /Line 1[\s\S]*− alpha[\s\S]*\+ ALPHA[\s\S]*Line 4[\s\S]*− delta[\s\S]*\+ DELTA/);
    await hunks.getByRole('button', { name: 'Undo the hunk at line 4 of list.txt' }).click();
    await hunks.locator('.hunk').nth(1).waitFor({ state: 'detached' });
    assert.equal(fs.readFileSync(file, 'utf8'), 'ALPHA\nbeta\ngamma\ndelta\n', 'only the second hunk went back');
    assert.match(await list.locator('[data-path="list.txt"]').innerText(), /\+1\s*−1/);

    // The diff of the file: the cursor on the remaining hunk, the editor title's Keep Hunk at Cursor.
    await list.getByRole('button', { name: 'list.txt', exact: true }).click();
    const modified = workbench.page.locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'ALPHA' }).first();
    await modified.waitFor();
    await modified.getByText('ALPHA').click();
    await workbench.page.locator('.editor-actions .action-label[aria-label^="Keep Hunk at Cursor"]').first().click();
    await list.waitFor({ state: 'detached' });
    assert.equal(fs.readFileSync(file, 'utf8'), 'ALPHA\nbeta\ngamma\ndelta\n', 'Keep changed nothing on disk');
  });
});
