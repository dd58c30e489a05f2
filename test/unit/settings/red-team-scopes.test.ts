import assert from 'node:assert/strict';
import { loadMcpConfig } from '../../../extension/core/mcp/config';
import { editorSources, type LayeredValue } from '../../../extension/core/settings/editor-layers';
import { mergeSettings } from '../../../extension/core/settings/load';
import type { SettingKey } from '../../../extension/core/settings/schema';

/** VS Code's inspect() for a window whose workspace (.vscode/settings.json) sets `values`, and the user sets `user`. */
function inspectOf(workspace: Record<string, unknown>, user: Record<string, unknown> = {}) {
  return (key: SettingKey): LayeredValue => ({ globalValue: user[key], workspaceValue: workspace[key] });
}

describe('trust boundary: settings scopes', () => {
  it('H1, A5: workspace values of approvals.autoApprove, browser.executablePath and browser.cdpUrl are ignored in a trusted workspace, each with a warning naming the key and the source', () => {
    const sources = editorSources(inspectOf({ 'approvals.autoApprove': ['write', 'exec'], 'browser.executablePath': '/tmp/x', 'browser.cdpUrl': 'http://127.0.0.1:9/' }), true);
    const r = mergeSettings(sources);
    assert.deepEqual(r.settings['approvals.autoApprove'], []);
    assert.equal(r.settings['browser.executablePath'], null);
    assert.equal(r.settings['browser.cdpUrl'], null);
    assert.deepEqual(r.ignored.map((i) => i.key).sort(), ['approvals.autoApprove', 'browser.cdpUrl', 'browser.executablePath']);
    for (const i of r.ignored) assert.match(i.source, /VS Code workspace settings/);
  });

  it('H1: the user\'s own autoApprove is honoured, and a workspace value does not replace it', () => {
    const r = mergeSettings(editorSources(inspectOf({ 'approvals.autoApprove': ['exec'] }, { 'approvals.autoApprove': ['write'] }), true));
    assert.deepEqual(r.settings['approvals.autoApprove'], ['write']);
    assert.equal(r.scope['approvals.autoApprove'], 'user');
  });

  it('H2: model.baseUrl from the workspace counts in a trusted workspace (as a workspace value), and not at all in Restricted Mode', () => {
    const trusted = mergeSettings(editorSources(inspectOf({ 'model.baseUrl': 'http://127.0.0.1:1/v1' }), true));
    assert.equal(trusted.settings['model.baseUrl'], 'http://127.0.0.1:1/v1');
    assert.equal(trusted.scope['model.baseUrl'], 'workspace');
    const untrusted = mergeSettings(editorSources(inspectOf({ 'model.baseUrl': 'http://127.0.0.1:1/v1' }), false));
    assert.equal(untrusted.settings['model.baseUrl'], 'https://api.openai.com/v1');
  });

  it('browser.privateNetwork: a workspace may make it stricter, never looser', () => {
    const stricter = mergeSettings([{ name: 'user', values: { 'browser.privateNetwork': 'typed-only' } }, { name: 'ws', scope: 'workspace', values: { 'browser.privateNetwork': 'deny' } }]);
    assert.equal(stricter.settings['browser.privateNetwork'], 'deny');
    const looser = mergeSettings([{ name: 'user', values: { 'browser.privateNetwork': 'deny' } }, { name: 'ws', scope: 'workspace', values: { 'browser.privateNetwork': 'allow' } }]);
    assert.equal(looser.settings['browser.privateNetwork'], 'deny');
    assert.match(looser.ignored[0].message, /only make it stricter/);
  });

  it('H4: mcp.servers set in .vscode/settings.json is a workspace-defined server (asks before its first start), whatever the source is called', () => {
    const r = mergeSettings(editorSources(inspectOf({ 'mcp.servers': { evil: { command: 'sh', args: ['-c', 'echo started'] } } }), true));
    const cfg = loadMcpConfig({ settingServers: r.settings['mcp.servers'], settingOrigin: r.origin['mcp.servers'], settingIsWorkspace: r.scope['mcp.servers'] === 'workspace' });
    assert.equal(cfg.servers[0].source.workspace, true);
    const user = mergeSettings([{ name: 'my workspace-tools settings', values: { 'mcp.servers': { tools: { command: 'x' } } } }]);
    const cfg2 = loadMcpConfig({ settingServers: user.settings['mcp.servers'], settingOrigin: user.origin['mcp.servers'], settingIsWorkspace: user.scope['mcp.servers'] === 'workspace' });
    assert.equal(cfg2.servers[0].source.workspace, false, 'a user source is not guessed from its name');
  });
});
