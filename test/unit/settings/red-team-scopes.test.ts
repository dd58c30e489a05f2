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

  it('N14/N10: price keys and the context window are user-only; maxRounds and mcp.startTimeoutS a workspace may only lower; compactAt only raise or switch off', () => {
    const ws = (values: Record<string, unknown>) => mergeSettings([{ name: 'user', values: {} }, { name: '.snowpea/settings.json', scope: 'workspace', values }]);
    const prices = ws({ 'model.inputPrice': 0, 'model.outputPrice': 0, 'model.cacheDiscount': 1, 'model.cacheWritePremium': 5, 'model.contextWindow': 1024 });
    assert.deepEqual([prices.settings['model.inputPrice'], prices.settings['model.outputPrice'], prices.settings['model.cacheDiscount'], prices.settings['model.cacheWritePremium'], prices.settings['model.contextWindow']], [null, null, null, null, null]);
    assert.deepEqual(prices.ignored.map((i) => i.key).sort(), ['model.cacheDiscount', 'model.cacheWritePremium', 'model.contextWindow', 'model.inputPrice', 'model.outputPrice']);
    const longer = ws({ 'agent.maxRounds': 10_000, 'mcp.startTimeoutS': 600, 'agent.compactAt': 0.2 });
    assert.deepEqual([longer.settings['agent.maxRounds'], longer.settings['mcp.startTimeoutS'], longer.settings['agent.compactAt']], [50, 30, 0.8]);
    assert.match(longer.ignored.find((i) => i.key === 'agent.maxRounds')!.message, /may only lower it from 50/);
    assert.match(longer.ignored.find((i) => i.key === 'agent.compactAt')!.message, /may only raise it \(or set null\) from 0.8/);
    const tighter = ws({ 'agent.maxRounds': 10, 'mcp.startTimeoutS': 5, 'agent.compactAt': null });
    assert.deepEqual([tighter.settings['agent.maxRounds'], tighter.settings['mcp.startTimeoutS'], tighter.settings['agent.compactAt']], [10, 5, null]);
    assert.deepEqual(tighter.ignored, []);
    const user = mergeSettings([{ name: 'user', values: { 'agent.maxRounds': 500, 'model.inputPrice': 3 } }]);
    assert.deepEqual([user.settings['agent.maxRounds'], user.settings['model.inputPrice']], [500, 3], 'the user may set them freely');
  });
});
