import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { configurationProperties, restrictedConfigurations } from '../../../extension/core/settings/contributes';
import { fileSources } from '../../../extension/core/settings/files';
import { flattenSettings, mergeSettings } from '../../../extension/core/settings/load';
import { defaultSettings, settingKeys } from '../../../extension/core/settings/schema';

describe('settings', () => {
  it('has the documented defaults (docs/design.md)', () => {
    const s = defaultSettings();
    assert.equal(s['tools.repeatGuard'], true);
    assert.equal(s['tools.deferred'], true);
    assert.deepEqual(s['tools.eager'], []);
    assert.equal(s['agent.pruneToolOutputs'], true);
    assert.equal(s['agent.keepToolRounds'], 6);
    assert.equal(s['agents.childContext'], 'lean');
    assert.equal(s['agent.contextFileMaxChars'], null);
    assert.equal(s['agent.contextFilesMaxChars'], null);
    assert.equal(s['agent.ignoreContextFiles'], false);
    assert.equal(s['skills.protectRecentViews'], 3);
    assert.equal(s['agent.maxRounds'], 50);
  });

  it('flattens nested keys and keeps flat ones', () => {
    assert.deepEqual(flattenSettings({ tools: { repeatGuard: false, eager: ['a'] }, 'agent.keepToolRounds': 2 }), {
      'tools.repeatGuard': false,
      'tools.eager': ['a'],
      'agent.keepToolRounds': 2,
    });
    // a record-valued setting is not descended into
    assert.deepEqual(flattenSettings({ mcp: { servers: { gh: { command: 'x' } } } }), { 'mcp.servers': { gh: { command: 'x' } } });
  });

  it('merges sources in order, later wins, and records the origin', () => {
    const r = mergeSettings([
      { name: 'user', values: { tools: { repeatGuard: false }, agent: { keepToolRounds: 3 } } },
      { name: 'workspace', values: { 'agent.keepToolRounds': 9 } },
    ]);
    assert.equal(r.settings['tools.repeatGuard'], false);
    assert.equal(r.settings['agent.keepToolRounds'], 9);
    assert.equal(r.origin['agent.keepToolRounds'], 'workspace');
    assert.equal(r.origin['tools.deferred'], 'default');
    assert.deepEqual(r.issues, []);
  });

  it('reports every bad value with key and source, keeps the earlier value, never throws', () => {
    const r = mergeSettings([
      { name: 'user', values: { agent: { keepToolRounds: 4 } } },
      {
        name: 'workspace',
        values: {
          agent: { keepToolRounds: -1, pruneToolOutputs: 'yes' },
          agents: { childContext: 'skinny' },
          tools: { eager: 'read_file', bogus: 1 },
          'model.baseUrl': 'not a url',
        },
      },
      { name: 'cli', values: 'nonsense' },
    ]);
    assert.equal(r.settings['agent.keepToolRounds'], 4, 'bad value falls back to the earlier source');
    assert.equal(r.settings['agent.pruneToolOutputs'], true);
    assert.equal(r.settings['agents.childContext'], 'lean');
    assert.deepEqual(r.settings['tools.eager'], []);
    const keys = r.issues.map((i) => `${i.source}:${i.key}`).sort();
    assert.deepEqual(keys, [
      'cli:(root)',
      'workspace:agent.keepToolRounds',
      'workspace:agent.pruneToolOutputs',
      'workspace:agents.childContext',
      'workspace:model.baseUrl',
      'workspace:tools.bogus',
      'workspace:tools.eager',
    ]);
    const bogus = r.issues.find((i) => i.key === 'tools.bogus')!;
    assert.match(bogus.message, /unknown setting/);
    const neg = r.issues.find((i) => i.key === 'agent.keepToolRounds')!;
    assert.match(neg.message, /got -1/);
  });

  it('reads user and workspace files; a broken file is reported, not thrown', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-home-'));
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ws-'));
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ tools: { deferred: false } }));
    fs.mkdirSync(path.join(ws, '.snowpea'));
    fs.writeFileSync(path.join(ws, '.snowpea', 'settings.json'), '{ broken');
    const old = process.env.SNOWPEA_HOME;
    process.env.SNOWPEA_HOME = home;
    try {
      const sources = fileSources(ws);
      assert.equal(sources.length, 2);
      assert.deepEqual(sources[0].values, { tools: { deferred: false } });
      assert.match(sources[1].error ?? '', /not valid JSON/);
      assert.equal(mergeSettings(sources).settings['tools.deferred'], false);
    } finally {
      if (old === undefined) delete process.env.SNOWPEA_HOME;
      else process.env.SNOWPEA_HOME = old;
    }
  });

  it("package.json contributes.configuration agrees with the zod schema", () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    const manifest = pkg.contributes.configuration.properties as Record<string, unknown>;
    const expected = configurationProperties();
    assert.deepEqual(Object.keys(manifest).sort(), settingKeys.map((k) => `snowpea.${k}`).sort(), 'same keys (run npx tsx scripts/sync-config.ts)');
    assert.deepEqual(manifest, JSON.parse(JSON.stringify(expected)), 'same types, defaults, descriptions (run npx tsx scripts/sync-config.ts)');
  });

  it('Restricted Mode ignores the workspace values of every setting that names an endpoint, a program or a server, and the manifest lists them', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    const listed = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations as string[];
    assert.deepEqual(listed, restrictedConfigurations(), 'run npx tsx scripts/sync-config.ts');
    for (const key of ['model.baseUrl', 'mcp.servers', 'browser.executablePath', 'browser.cdpUrl']) assert.ok(listed.includes(`snowpea.${key}`), key);
  });
});
