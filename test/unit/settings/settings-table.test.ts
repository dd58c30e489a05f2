/**
 * Red team acceptance (issue 27): which keys a workspace may set is one table (the schema's
 * `trust`, `strictness`, `workspaceMay` and `risk`), and every key that can run a program, send data
 * or prompts elsewhere, widen approvals, change prices or disable a safety net is guarded.
 * The classification below is written out key by key, so a new setting fails here until someone
 * decides what a repository could do with it.
 */
import assert from 'node:assert/strict';
import { mergeSettings, workspaceSpendNotice } from '../../../extension/core/settings/load';
import { settingDefs, settingKeys, type SettingKey, type SettingRisk } from '../../../extension/core/settings/schema';

type Row = { risk: SettingRisk | null; widen?: unknown };

/** Every key, its risk, and (for guarded keys) a value a hostile workspace would want. */
const TABLE: Record<SettingKey, Row> = {
  'tools.repeatGuard': { risk: 'safety-net', widen: false },
  'tools.deferred': { risk: 'safety-net', widen: false },
  'tools.eager': { risk: 'spend' },
  'tools.outputMaxChars': { risk: 'safety-net', widen: 1_000_000 },
  'tools.readMaxLines': { risk: null },
  'tools.shellTimeoutS': { risk: null },
  'tools.diagnosticsAfterEdit': { risk: null },
  'agent.pruneToolOutputs': { risk: 'safety-net', widen: false },
  'agent.pruneStrategy': { risk: null },
  'agent.keepToolRounds': { risk: 'safety-net', widen: 10_000 },
  'agent.compactAt': { risk: 'safety-net', widen: 0.2 },
  'agent.compactKeepRounds': { risk: null },
  'agent.maxRounds': { risk: 'spend', widen: 10_000 },
  'agent.budget': { risk: 'spend', widen: { turn: 1000, session: null } },
  'agent.contextFileMaxChars': { risk: null },
  'agent.contextFilesMaxChars': { risk: null },
  'agent.ignoreContextFiles': { risk: null },
  'agents.childContext': { risk: null },
  'skills.protectRecentViews': { risk: null },
  'model.provider': { risk: 'sends-elsewhere' },
  'model.baseUrl': { risk: 'sends-elsewhere' },
  'model.name': { risk: 'spend' },
  'model.contextWindow': { risk: 'safety-net', widen: 1024 },
  'model.supportsImages': { risk: null },
  'model.cacheDiscount': { risk: 'prices', widen: 0 },
  'model.cacheWritePremium': { risk: 'prices', widen: 1 },
  'model.cacheHints': { risk: null },
  'model.inputPrice': { risk: 'prices', widen: 0 },
  'model.outputPrice': { risk: 'prices', widen: 0 },
  'model.maxOutputTokens': { risk: 'spend', widen: null },
  'model.thinkingBudgetTokens': { risk: 'spend', widen: 100_000 },
  'model.reasoningEffort': { risk: 'spend', widen: 'high' },
  'model.requestTimeoutS': { risk: null },
  'model.maxRetries': { risk: null },
  'approvals.autoApprove': { risk: 'widens-approvals', widen: ['write', 'exec'] },
  'approvals.commandRules': { risk: 'widens-approvals', widen: { allow: ['curl'], deny: [] } },
  'browser.executablePath': { risk: 'runs-program', widen: '/tmp/evil' },
  'browser.headless': { risk: null },
  'chat.messagesDuringTurn': { risk: null },
  'chat.notifyWhenUnfocused': { risk: null },
  'browser.cdpUrl': { risk: 'runs-program', widen: 'http://127.0.0.1:9222/' },
  'browser.privateNetwork': { risk: 'sends-elsewhere', widen: 'allow' },
  'images.maxFileBytes': { risk: null },
  'images.maxDimension': { risk: null },
  'images.maxBytes': { risk: null },
  'mcp.servers': { risk: 'runs-program' },
  'mcp.startTimeoutS': { risk: 'safety-net', widen: 600 },
  'mcp.callTimeoutS': { risk: null },
  'media.imageModel': { risk: 'spend' },
  'media.speechModel': { risk: 'spend' },
  'media.transcribeModel': { risk: 'spend' },
  'checkpoints.enabled': { risk: 'safety-net', widen: false },
  'checkpoints.maxWorkspaceMB': { risk: 'safety-net', widen: 1 },
  'checkpoints.maxFileMB': { risk: 'safety-net', widen: 1 },
  'checkpoints.maxStoreMB': { risk: 'safety-net', widen: 1 },
  'checkpoints.maxAgeDays': { risk: 'safety-net', widen: 1 },
  'log.level': { risk: null },
};

/**
 * The keys a trusted workspace may set that send the conversation or start programs, because
 * docs/design.md lets a trusted workspace define endpoints and MCP servers. Each is used only after
 * the user consents, tested where the consent lives: the API key and the endpoint
 * (test/unit/cli/red-team-n9*.ts, test/unit/host/workspace-endpoint.test.ts), MCP servers
 * (test/unit/mcp/ consent tests).
 */
const CONSENT_GATED = new Set<SettingKey>(['model.baseUrl', 'model.provider', 'mcp.servers']);

/** The user's own values to hold a one-way key against (the stricter side is then checked). */
const USER_SIDE: Partial<Record<SettingKey, unknown>> = { 'agent.compactAt': 0.8, 'model.maxOutputTokens': 4096, 'browser.privateNetwork': 'deny' };

function fromWorkspace(key: SettingKey, value: unknown) {
  const user = key in USER_SIDE ? { [key]: USER_SIDE[key] } : {};
  return mergeSettings([{ name: 'user', values: user }, { name: '.snowpea/settings.json', scope: 'workspace', values: { [key]: value } }]);
}

describe('settings table: what a workspace may set (issue 27 acceptance, N14)', () => {
  it('every key in the schema is classified here, and the schema carries the same risk', () => {
    assert.deepEqual([...settingKeys].sort(), Object.keys(TABLE).sort());
    for (const k of settingKeys) assert.equal(settingDefs[k].risk ?? null, TABLE[k].risk, `${k}: risk in the schema`);
  });

  it('every key that runs a program, sends data elsewhere, widens approvals, changes prices or disables a safety net is user-only, one-way, stricter-only or consent-gated', () => {
    for (const k of settingKeys) {
      const d = settingDefs[k];
      const risk = TABLE[k].risk;
      if (!risk || risk === 'spend') continue;
      const guarded = d.trust === 'user' || !!d.strictness || !!d.workspaceMay || (d.trust === 'trusted' && CONSENT_GATED.has(k));
      assert.ok(guarded, `${k} (${risk}) must not be freely settable by a workspace`);
      if (risk === 'widens-approvals' || risk === 'prices') assert.equal(d.trust, 'user', `${k} is user-only`);
    }
  });

  it('a workspace value that would widen a guarded key is ignored with a message that says who may set it', () => {
    for (const k of settingKeys) {
      const row = TABLE[k];
      if (!('widen' in row)) continue;
      const r = fromWorkspace(k, row.widen);
      assert.notDeepEqual(r.settings[k], row.widen, `${k}: the workspace value ${JSON.stringify(row.widen)} must not apply`);
      const why = r.ignored.find((i) => i.key === k);
      assert.ok(why, `${k}: ignored with a message`);
      assert.match(why.message, /user settings/);
    }
  });

  it('spend keys a workspace sets are named in one notice for the chat and the CLI; none when the workspace sets none', () => {
    const loaded = mergeSettings([
      { name: 'user', values: {} },
      { name: '.snowpea/settings.json', scope: 'workspace', values: { model: { name: 'o1-pro' }, agent: { maxRounds: 40 }, tools: { eager: ['browser_navigate'] } } },
    ]);
    const notice = workspaceSpendNotice(loaded);
    assert.ok(notice);
    assert.match(notice, /\.snowpea\/settings\.json/);
    assert.match(notice, /model\.name = "o1-pro"/);
    assert.match(notice, /agent\.maxRounds = 40/);
    assert.match(notice, /tools\.eager = \["browser_navigate"\]/);
    assert.match(notice, /cost/);
    const own = mergeSettings([{ name: 'user', values: { model: { name: 'o1-pro' } } }]);
    assert.equal(workspaceSpendNotice(own), undefined, 'the user\'s own choice needs no notice');
  });

  it('thinking tokens are billed: a workspace cannot switch extended thinking on', () => {
    const r = fromWorkspace('model.thinkingBudgetTokens', 32_000);
    assert.equal(r.settings['model.thinkingBudgetTokens'], null);
  });

  it('safety switches: a workspace may turn them on, never off', () => {
    for (const k of ['tools.repeatGuard', 'tools.deferred', 'agent.pruneToolOutputs'] as const) {
      const off = mergeSettings([{ name: 'user', values: {} }, { name: 'ws', scope: 'workspace', values: { [k]: false } }]);
      assert.equal(off.settings[k], true, `${k} stays on`);
      const on = mergeSettings([{ name: 'user', values: { [k]: false } }, { name: 'ws', scope: 'workspace', values: { [k]: true } }]);
      assert.equal(on.settings[k], true, `${k}: a workspace may turn it back on`);
      const mine = mergeSettings([{ name: 'user', values: { [k]: false } }]);
      assert.equal(mine.settings[k], false, `${k}: the user may turn it off`);
    }
  });
});
