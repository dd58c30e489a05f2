import * as assert from 'node:assert/strict';
import { useVsCode } from './harness/use-vscode';

describe('e2e: the Snowpea Tools tree view', function () {
  const vscode = useVsCode();

  it('is visible in the Snowpea side bar and lists the Core tools', async function () {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    const pane = await workbench.expandView('Tools');
    await pane.waitFor({ state: 'visible' });

    const row = workbench.treeRow('Tools', /^\s*(Core|read_file)\b/);
    await row.first().waitFor({ state: 'visible' });
    assert.ok((await row.count()) >= 1);
  });
});
