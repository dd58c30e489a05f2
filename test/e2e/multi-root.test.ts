import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatTurn, scriptedModelSettings, toolResults, useScriptedModel } from './harness/scripted-model';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';

/** A `.code-workspace` with two folders: `workspace` (the first) and `api` (a config file: no language service to wait for). */
describe('e2e: a multi-root workspace (issue 30)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted(), { 'snowpea.approvals.autoApprove': ['write'] }),
    workspaceFiles: { 'README.md': '# web\n' },
    moreFolders: { api: { 'src/server.cfg': 'port = 8080\n', 'AGENTS.md': 'API folder: run make test.\n' } },
  }));
  const apiFile = () => path.join(vscode().dir, 'api', 'src', 'server.cfg');

  it('issue 30 multi-root: the @ popup lists the second folder\'s files as folder/path', async function () {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.composer).click();
    await frame.locator(CHAT.composer).pressSequentially('look at @server');
    const rows = frame.locator('[data-kind="mentions"] .mention-path');
    await rows.filter({ hasText: 'api/src/server.cfg' }).first().waitFor({ state: 'visible' });
    assert.deepEqual(await rows.allInnerTexts(), ['api/src/server.cfg']);
    await frame.locator(CHAT.composer).fill('');
  });

  it('issue 30 multi-root: the agent reads and edits a file in the second folder, with both folders in its prompt; Restore puts it back', async function () {
    const model = scripted();
    const { workbench } = vscode();
    const before = model.chatRequests().length;
    model.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: 'api/src/server.cfg' }) }] },
      { toolCalls: [{ name: 'edit_file', arguments: JSON.stringify({ path: 'api/src/server.cfg', old_string: '8080', new_string: '9090' }) }] },
      { text: 'port changed' },
    );
    await chatTurn(workbench, 'change the api port to 9090', 'port changed');
    assert.equal(fs.readFileSync(apiFile(), 'utf8'), 'port = 9090\n');
    const system = (model.chatRequests()[before]!.body.messages as Array<{ role: string; content: string }>)[0]!.content;
    assert.match(system, /Workspace: 2 folders\./);
    assert.ok(system.includes(`- api: ${path.join(vscode().dir, 'api')}`), 'the second folder is listed');
    assert.match(system, /## api\/AGENTS\.md\nAPI folder: run make test\./, "the second folder's instruction file is in the prompt");
    assert.match(toolResults(model, before + 1)[0]!, /8080/, 'read_file read the second folder');
    assert.match(toolResults(model, before + 2)[1]!, /^edited api\/src\/server\.cfg/);

    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.getByRole('button', { name: 'Restore checkpoint of message 1' }).click();
    await frame.getByRole('group', { name: 'Restore to before message 1' }).getByRole('button', { name: 'Restore files to before this message' }).click();
    const dialog = workbench.page.locator('.monaco-dialog-box');
    const ok = dialog.locator('.monaco-button', { hasText: /^Restore$/ });
    await ok.waitFor({ state: 'visible' });
    assert.match(await dialog.innerText(), /api\/src\/server\.cfg \(modified: rewritten\)/);
    await ok.click();
    await workbench.page.locator('.notification-toast', { hasText: 'Snowpea: restored 1 file to before message 1.' }).waitFor();
    assert.equal(fs.readFileSync(apiFile(), 'utf8'), 'port = 8080\n');
  });
});
