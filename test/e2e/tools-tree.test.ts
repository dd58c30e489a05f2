import * as assert from 'node:assert/strict';
import { chatTurn, scriptedModelSettings, toolResults, useScriptedModel } from './harness/scripted-model';
import { useVsCode } from './harness/use-vscode';

describe('e2e: the Snowpea Tools tree view', function () {
  const scripted = useScriptedModel();
  const vscode = useVsCode(() => ({ settings: scriptedModelSettings(scripted()) }));

  it('lists Core and the deferred groups with their counts', async function () {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    await workbench.expandView('Tools');

    await workbench.treeRow('Tools', /^Core \(\d+\)$/).first().waitFor({ state: 'visible' });
    await workbench.treeRow('Tools', 'read_file').first().waitFor({ state: 'visible' });
    assert.equal(await workbench.treeRowDescription('Tools', /^Core \(\d+\)$/), 'eager');
    // Collapse the big groups so the deferred ones are on screen (the tree renders visible rows only).
    await workbench.collapseTreeRow('Tools', /^Core \(\d+\)$/);
    for (const group of ['browser (8)', 'git (4)', 'media (5)', 'memory (1)']) {
      await workbench.treeRow('Tools', group).first().waitFor({ state: 'visible' });
      assert.equal(await workbench.treeRowDescription('Tools', group), 'deferred', group);
    }
  });

  it('shows a deferred tool as loaded after tool_search loads it', async function () {
    const model = scripted();
    const { workbench } = vscode();
    await workbench.openSnowpea();
    await workbench.expandView('Tools');
    await workbench.collapseTreeRow('Tools', /^Core \(\d+\)$/);
    await workbench.collapseTreeRow('Tools', 'browser (8)'); // git's rows on screen
    const gitDiff = workbench.treeRow('Tools', 'git_diff').first();
    await gitDiff.waitFor({ state: 'visible' });
    assert.doesNotMatch(await workbench.treeRowDescription('Tools', 'git_diff'), /loaded/);

    model.enqueue({ toolCalls: [{ name: 'tool_search', arguments: '{"query":"select:git_diff"}' }] }, { text: 'git_diff is loaded.' });
    await chatTurn(workbench, 'load git_diff', 'git_diff is loaded.');
    assert.match(toolResults(model, 1)[0], /git_diff/);
    const tools = model.chatRequests()[1].body.tools.map((t: { function: { name: string } }) => t.function.name);
    assert.ok(tools.includes('git_diff'), 'its schema is sent from the next round on');

    await workbench.treeRow('Tools', 'git_diff').first().locator('.label-description', { hasText: /^loaded · read · / }).waitFor({ state: 'visible' });
    assert.equal(await workbench.treeRow('Tools', /^Core \(\d+\)$/).first().getAttribute('aria-expanded'), 'false', 'a refresh keeps collapsed groups collapsed');
    assert.doesNotMatch(await workbench.treeRowDescription('Tools', 'git_status'), /loaded/, 'only what was loaded');
  });
});
