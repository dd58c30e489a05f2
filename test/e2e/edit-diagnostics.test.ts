import * as assert from 'node:assert/strict';
import { chatTurn, scriptedModelSettings, toolResults, useScriptedModel } from './harness/scripted-model';
import { waitForLogLine } from './harness/snowpea-log';
import { useVsCode } from './harness/use-vscode';

/** The JSON language server ships with VS Code (and code-server) and checks a document once it is open, shown or not. */
describe('e2e: an edit that introduces an error reports it to the model (issue 19, problems introduced)', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({
    settings: scriptedModelSettings(scripted(), { 'snowpea.approvals.autoApprove': ['write'] }),
    workspaceFiles: {
      'config.json': '{\n  "name": "demo",\n  "port": 8080\n}\n',
      'open.json': '{\n  "broken": ,\n  "name": "demo",\n  "port": 8080\n}\n',
      'notes.md': '# Notes\n\nFirst draft.\n',
    },
  }));

  it('edit_file breaking config.json: the tool result names the JSON error and its line; the fix reports none', async function () {
    const model = scripted();
    const { workbench } = vscode();
    const breakIt = { path: 'config.json', old_string: '"name": "demo",', new_string: '"name": "demo"' };
    model.enqueue({ toolCalls: [{ name: 'edit_file', arguments: JSON.stringify(breakIt) }] }, { text: 'edit made' });
    await chatTurn(workbench, 'drop the comma in config.json', 'edit made');
    const broken = toolResults(model, 1)[0];
    assert.match(broken, /^edited config\.json/);
    assert.match(broken, /This edit introduced a problem in config\.json \(VS Code diagnostics\):\nline 3: error \[json[^\]]*\] .*comma/i);

    const fixIt = { path: 'config.json', old_string: '"name": "demo"', new_string: '"name": "demo",' };
    model.enqueue({ toolCalls: [{ name: 'edit_file', arguments: JSON.stringify(fixIt) }] }, { text: 'fixed' });
    await chatTurn(workbench, 'put it back', 'fixed');
    const fixed = toolResults(model, 3).at(-1)!;
    assert.match(fixed, /^edited config\.json/);
    assert.doesNotMatch(fixed, /introduced/, 'the fix introduces nothing');
    // The file was not open: the background tab that let the language service check it is closed again.
    await workbench.page.locator('.tabs-container .tab', { hasText: 'config.json' }).waitFor({ state: 'detached' });
    // It waited because VS Code's JSON extension checks JSON (issue 29: only such languages wait).
    await waitForLogLine(vscode().dir, /\[info\] diagnostics after edit of config\.json: (vscode\.json-language-features checks json|json files have had diagnostics in this window)$/);
  });

  it('write_file on an open file with an old error: only the new error is reported, though the old one moved down', async function () {
    const model = scripted();
    const { workbench } = vscode();
    const page = workbench.page;
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('open.json');
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused', { hasText: 'open.json' }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor(); // the old "Value expected" is known before the edit

    const content = '{\n  "first": 1,\n  "second": 2,\n  "broken": ,\n  "name": "demo"\n  "port": 8080\n}\n';
    model.enqueue({ toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'open.json', content }) }] }, { text: 'rewritten' });
    await chatTurn(workbench, 'rewrite open.json', 'rewritten');
    const result = toolResults(model, 5).at(-1)!;
    assert.match(result, /^overwrote open\.json/);
    assert.match(result, /This edit introduced a problem in open\.json \(VS Code diagnostics\):\nline 6: error \[json[^\]]*\] .*comma[^\n]*$/i);
    assert.doesNotMatch(result, /line 4/, 'the old error, now on line 4, is not reported');
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'open.json' }).count(), 1, "the user's tab stays open");
  });

  it('edit_file on a Markdown file, which nothing checks, returns without waiting for diagnostics (issue 29)', async function () {
    const model = scripted();
    const session = vscode();
    const edit = { path: 'notes.md', old_string: 'First draft.', new_string: 'Second draft.' };
    model.enqueue({ toolCalls: [{ name: 'edit_file', arguments: JSON.stringify(edit) }] }, { text: 'notes edited' });
    await chatTurn(session.workbench, 'edit the notes', 'notes edited');
    const result = toolResults(model, model.chatRequests().length - 1).at(-1)!;
    assert.match(result, /^edited notes\.md/);
    assert.doesNotMatch(result, /diagnostics|introduced/, 'no diagnostics section');
    await waitForLogLine(session.dir, /\[info\] diagnostics after edit of notes\.md: no diagnostics provider for markdown; not waited$/);
  });
});

