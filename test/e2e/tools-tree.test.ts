import * as assert from 'node:assert/strict';
import { chatTurn, scriptedModelSettings, toolResults, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: the Snowpea Tools tree view', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('lists Core and the deferred groups with their counts', async function () {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    await workbench.expandViewAlone('Tools');

    // All 13 eager tools before any chat (tool_search and delegate_task come with the agent).
    await workbench.treeRow('Tools', 'Core (13)').first().waitFor({ state: 'visible' });
    await workbench.treeRow('Tools', 'read_file').first().waitFor({ state: 'visible' });
    await workbench.treeRow('Tools', 'tool_search').first().waitFor({ state: 'visible' });
    assert.equal(await workbench.treeRowDescription('Tools', /^Core \(\d+\)$/), 'eager');
    // Collapse the big groups so the deferred ones are on screen (the tree renders visible rows only).
    await workbench.collapseTreeRow('Tools', /^Core \(\d+\)$/);
    // The Deferred line's order: browser, git, media, memory, fs, todo (then MCP servers).
    const groups = ['browser (8)', 'git (4)', 'media (5)', 'memory (1)', 'fs (1)', 'todo (1)'];
    for (const group of groups) {
      assert.equal(await workbench.treeRowDescription('Tools', group), 'deferred', group);
      await workbench.collapseTreeRow('Tools', group);
    }
    const shown = await workbench.viewPane('Tools').locator('.pane-body .monaco-list-row[aria-level="1"] .label-name').allInnerTexts();
    assert.deepEqual(shown.map((t) => t.trim()), [shown[0].trim(), ...groups]);
    assert.match(shown[0], /^Core \(\d+\)$/);
  });

  it('shows a deferred tool as loaded after tool_search loads it', async function () {
    const model = scripted();
    const { workbench } = vscode();
    await workbench.openSnowpea();
    await workbench.expandViewAlone('Tools');
    await workbench.collapseTreeRow('Tools', /^Core \(\d+\)$/);
    await workbench.collapseTreeRow('Tools', 'browser (8)'); // git's rows on screen
    await workbench.expandTreeRow('Tools', 'git (4)');
    const gitDiff = workbench.treeRow('Tools', 'git_diff').first();
    await gitDiff.waitFor({ state: 'visible' });
    assert.doesNotMatch(await workbench.treeRowDescription('Tools', 'git_diff'), /loaded/);

    model.enqueue({ toolCalls: [{ name: 'tool_search', arguments: '{"query":"select:git_diff"}' }] }, { text: 'git_diff is loaded.' });
    await chatTurn(workbench, 'load git_diff', 'git_diff is loaded.');
    await workbench.expandViewAlone('Tools');
    assert.match(toolResults(model, 1)[0], /git_diff/);
    const tools = model.chatRequests()[1].body.tools.map((t: { function: { name: string } }) => t.function.name);
    assert.ok(tools.includes('git_diff'), 'its schema is sent from the next round on');

    await workbench.treeRow('Tools', 'git_diff').first().locator('.label-description', { hasText: /^loaded · read · / }).waitFor({ state: 'visible' });
    assert.equal(await workbench.treeRow('Tools', /^Core \(\d+\)$/).first().getAttribute('aria-expanded'), 'false', 'a refresh keeps collapsed groups collapsed');
    assert.doesNotMatch(await workbench.treeRowDescription('Tools', 'git_status'), /loaded/, 'only what was loaded');
  });

  it('Add to Eager from the context menu moves a tool to Core; only such a tool offers Remove from Eager', async function () {
    const { workbench, page } = vscode();
    await workbench.openSnowpea();
    await workbench.expandViewAlone('Tools');

    await workbench.expandTreeRow('Tools', /^Core \(\d+\)$/);
    await workbench.treeRow('Tools', 'read_file').first().click({ button: 'right' });
    await workbench.contextMenuItem('Copy Name').waitFor({ state: 'visible' });
    assert.equal(await workbench.contextMenuItem('Remove from Eager').count(), 0, 'a built-in core tool is always eager');
    await page.keyboard.press('Escape');

    await workbench.collapseTreeRow('Tools', /^Core \(\d+\)$/);
    await workbench.collapseTreeRow('Tools', 'browser (8)');
    await workbench.expandTreeRow('Tools', 'git (4)');
    await workbench.runTreeRowMenuItem('Tools', 'git_log', 'Add to Eager');
    await workbench.treeRow('Tools', 'git (3)').first().waitFor({ state: 'visible' });
    assert.equal(await workbench.treeRowDescription('Tools', 'git (3)'), 'deferred');

    await workbench.expandTreeRow('Tools', /^Core \(\d+\)$/);
    await workbench.runTreeRowMenuItem('Tools', 'git_log', 'Remove from Eager');
    await workbench.collapseTreeRow('Tools', /^Core \(1[34]\)$/);
    await workbench.treeRow('Tools', 'git (4)').first().waitFor({ state: 'visible' });
    assert.ok(await workbench.treeRow('Tools', /^Core \(13\)$/).count(), 'git_log left Core');
  });

  it('clicking a tool shows its schema read-only: no unsaved marker, and closing it asks nothing (issue 29)', async function () {
    const { workbench, page } = vscode();
    await workbench.openSnowpea();
    await workbench.expandViewAlone('Tools');
    await workbench.expandTreeRow('Tools', /^Core \(\d+\)$/);
    await workbench.treeRow('Tools', 'read_file').first().click();

    const tab = page.locator('.part.editor .tabs-container .tab', { hasText: 'read_file.json' });
    await tab.waitFor({ state: 'visible' });
    await page.locator('.part.editor .monaco-editor .view-line', { hasText: '"permission": "read"' }).first().waitFor({ state: 'visible' });
    assert.doesNotMatch((await tab.getAttribute('class')) ?? '', /\bdirty\b/, 'not marked unsaved');
    await page.locator('.part.editor .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+W');
    // An unsaved document would stay open behind a "Do you want to save" dialog.
    await tab.waitFor({ state: 'detached' });
  });
});
