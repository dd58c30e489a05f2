import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { useVsCode } from './harness/use-vscode';

/** The MCP server of the unit tests (the real SDK over stdio), run with tsx by the test's own Node. */
const MCP_FIXTURE = path.resolve(__dirname, '../fixtures/mcp-stdio-server.ts');
const TSX = pathToFileURL(require.resolve('tsx')).href;

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

describe('e2e: MCP servers follow their configuration', function () {
  const vscode = useVsCode();

  it('a server added to .mcp.json (asked about once) shows its tools in the Tools tree; deleting the file takes them away', async function () {
    const { workbench, workspace, page } = vscode();
    await workbench.openSnowpea();
    await workbench.runCommand('Snowpea: Show MCP Servers'); // MCP in use in this window, with no servers yet
    await workbench.expandViewAlone('Tools');
    for (const group of [/^Core \(\d+\)$/, 'browser (8)', 'git (4)', 'media (5)']) await workbench.collapseTreeRow('Tools', group);
    assert.equal(await workbench.treeRow('Tools', /^mcp:/).count(), 0);

    const config = path.join(workspace, '.mcp.json');
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: ['--import', TSX, MCP_FIXTURE] } } }));
    // A server the workspace defines asks before its first start.
    const start = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Start Server$/ });
    await start.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await page.locator('.monaco-dialog-box').innerText(), /start the MCP server "fx" defined in \.mcp\.json/);
    await start.click();
    await workbench.treeRow('Tools', 'mcp:fx (10)').first().waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'asked once, not once per file event');

    fs.rmSync(config);
    await workbench.treeRow('Tools', 'mcp:fx (10)').first().waitFor({ state: 'detached', timeout: 60_000 });
  });
});
