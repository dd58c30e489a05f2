import * as assert from 'node:assert/strict';
import { useVsCode } from './harness/use-vscode';

/** A stdio "server" that starts and never answers initialize: its start would wait out the 30 s timeout. */
const SILENT_SERVER = "setInterval(() => {}, 1000); process.stdin.resume();\n";

describe('e2e: an MCP server that is slow to start', function () {
  const vscode = useVsCode(() => ({
    settings: {
      'snowpea.mcp.servers': { slow: { command: process.execPath, args: ['${workspaceFolder}/silent-server.js'] } },
    },
    workspaceFiles: { 'silent-server.js': SILENT_SERVER },
  }));

  it('shows a progress notification whose Cancel stops the server', async function () {
    const { workbench } = vscode();
    await workbench.waitForSnowpea();
    // The first use of MCP in the window: the server has no cached tool list, so it starts now.
    await workbench.runCommand('Snowpea: Show MCP Servers');
    const toast = workbench.page.locator('.notification-toast', { hasText: 'Snowpea: starting the MCP server "slow"' });
    await toast.waitFor({ state: 'visible', timeout: 20_000 });

    await toast.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    await toast.waitFor({ state: 'detached' });

    await workbench.runCommand('Snowpea: Show MCP Servers');
    const editor = workbench.page.locator('.monaco-editor .view-lines');
    await editor.locator('.view-line', { hasText: /^slow\s+stopped\b/ }).first().waitFor({ state: 'visible' });
    assert.equal(await editor.locator('.view-line', { hasText: 'last error' }).count(), 0, 'a cancelled start is not a failure');
  });
});
