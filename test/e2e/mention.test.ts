import * as assert from 'node:assert/strict';
import { CHAT } from './harness/selectors';
import { useVsCode } from './harness/use-vscode';

/** A workspace larger than one listing page: 6,000 files, the one we want deep inside. */
function bigWorkspace(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 6000; i++) files[`bulk/dir-${i % 60}/file-${i}.txt`] = 'x\n';
  files['deep/a/b/c/needle-target.ts'] = 'export {};\n';
  files['node_modules/pkg/needle-dependency.js'] = '';
  files['hidden-dir/needle-hidden.ts'] = '';
  return files;
}

describe('e2e: @ in the composer', function () {
  const vscode = useVsCode({ settings: { 'files.exclude': { '**/hidden-dir': true } }, workspaceFiles: bigWorkspace() });

  it('finds a file deep in a large workspace, leaving out node_modules and files.exclude', async function () {
    const { workbench } = vscode();
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.composer).click();
    await frame.locator(CHAT.composer).pressSequentially('look at @needle');
    const rows = frame.locator('[data-kind="mentions"] .mention-path');
    await rows.filter({ hasText: 'deep/a/b/c/needle-target.ts' }).first().waitFor({ state: 'visible' });
    const shown = await rows.allInnerTexts();
    assert.deepEqual(shown, ['deep/a/b/c/needle-target.ts'], 'node_modules and the excluded folder are left out');
  });
});
