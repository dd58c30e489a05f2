import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startOAuthMcpServer, type OAuthFixture } from '../fixtures/mcp-oauth-server';
import { snowpeaLog } from './harness/snowpea-log';
import { useVsCode } from './harness/use-vscode';

describe('e2e: signing in to a hosted MCP server (OAuth) in code-server', function () {
  let fixture: OAuthFixture | undefined;
  before(async () => {
    fixture = await startOAuthMcpServer();
  });
  after(async () => fixture?.close());
  const vscode = useVsCode(() => ({ settings: { 'snowpea.mcp.servers': { hosted: { type: 'http', url: fixture!.url } } } }));

  it('needs sign-in -> Sign In -> confirm -> the browser comes back to the loopback -> the tools appear; the token is in no file', async function () {
    const { workbench, page, dir } = vscode();
    await workbench.openSnowpea();
    await workbench.runCommand('Snowpea: Show MCP Servers'); // MCP in use in this window: the server starts
    await workbench.expandViewAlone('Tools');
    for (const group of [/^Core \(\d+\)$/, 'browser (8)', 'git (4)', 'media (5)']) await workbench.collapseTreeRow('Tools', group);
    // The Tools tree's key item: the server wants sign-in, and nothing signed in by itself.
    const item = workbench.treeRow('Tools', 'mcp:hosted').first();
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await workbench.treeRowDescription('Tools', 'mcp:hosted'), 'needs sign-in');
    assert.deepEqual(fixture!.grants, []);

    // The browser's new tab (code-server opens external links with window.open).
    const popup = page.context().waitForEvent('page', { timeout: 60_000 });
    await item.click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const port = new URL(fixture!.url).port;
    assert.match(await dialog.innerText(), new RegExp(`sign in to the MCP server "hosted" \\(127\\.0\\.0\\.1:${port}\\)\\?`));
    await dialog.locator('.monaco-button', { hasText: /^Open Browser$/ }).click();
    const tab = await popup;
    await tab.waitForLoadState('load');

    await page.locator('.notification-toast', { hasText: 'Snowpea: signed in to the MCP server "hosted".' }).waitFor({ state: 'visible', timeout: 60_000 });
    await workbench.treeRow('Tools', 'mcp:hosted (1)').first().waitFor({ state: 'visible', timeout: 60_000 });
    assert.deepEqual(fixture!.grants, ['authorization_code']);
    assert.match(await tab.locator('body').innerText(), /Snowpea is signed in/);
    const [token] = [...fixture!.valid];
    assert.ok(token);
    // Not in the log, nor in any settings or state file of the session.
    assert.ok(!snowpeaLog(dir).includes(token), 'not in the log');
    const plain = (p: string): string[] => (fs.statSync(p).isDirectory() ? fs.readdirSync(p).flatMap((f) => plain(path.join(p, f))) : [p]);
    const leaks = plain(dir).filter((f) => /\.(json|log|db|txt)$/.test(f) && fs.readFileSync(f).includes(token));
    assert.deepEqual(leaks, [], 'no settings, state or log file holds the token');
  });
});
