import { useVsCode } from './harness/use-vscode';

describe('e2e: the Snowpea Tools tree view', function () {
  const vscode = useVsCode();

  it('is visible in the Snowpea side bar with its Core group and read_file', async function () {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    await workbench.expandView('Tools');

    await workbench.treeRow('Tools', /^Core\b/).first().waitFor({ state: 'visible' });
    await workbench.treeRow('Tools', 'read_file').first().waitFor({ state: 'visible' });
  });
});
