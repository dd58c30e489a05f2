import assert from 'node:assert/strict';
import { missingKeyProblem } from '../../../../extension/cli/api-key';
import { cliApiKey } from '../../../../extension/cli/setup';
import { coreProviders } from '../../../../extension/core/model/providers';
import { anthropicBaseUrl, keyEnvVar, keyTarget, requestBaseUrl } from '../../../../extension/core/model/providers/anthropic';
import { mergeSettings } from '../../../../extension/core/settings/load';
import { recordingLogger } from '../../../fixtures/recording-logger';

const user = (values: Record<string, unknown>) => ({ name: 'user settings', scope: 'user' as const, values });
const workspace = (values: Record<string, unknown>) => ({ name: '.snowpea/settings.json', scope: 'workspace' as const, values });

describe('anthropic provider: where requests and the key go', () => {
  it("Anthropic's API unless model.baseUrl names another server than OpenAI's default", () => {
    const s = (baseUrl?: string) => mergeSettings([user({ 'model.provider': 'anthropic', ...(baseUrl ? { 'model.baseUrl': baseUrl } : {}) })]).settings;
    assert.equal(anthropicBaseUrl(s()), 'https://api.anthropic.com');
    assert.equal(anthropicBaseUrl(s('https://api.openai.com/v1/')), 'https://api.anthropic.com');
    assert.equal(anthropicBaseUrl(s('https://gateway.example.com/anthropic')), 'https://gateway.example.com/anthropic');
    assert.equal(requestBaseUrl(s()), 'https://api.anthropic.com');
    assert.equal(requestBaseUrl(mergeSettings([]).settings), 'https://api.openai.com/v1', 'other providers: model.baseUrl');
  });

  it('the key goes where requests go; when a workspace picked the anthropic provider, it chose that endpoint (so the user is asked)', () => {
    assert.deepEqual(keyTarget(mergeSettings([user({ 'model.provider': 'anthropic' })])), { baseUrl: 'https://api.anthropic.com', scope: 'user', origin: 'user settings' });
    assert.deepEqual(keyTarget(mergeSettings([workspace({ 'model.provider': 'anthropic' })])), { baseUrl: 'https://api.anthropic.com', scope: 'workspace', origin: '.snowpea/settings.json' });
    assert.deepEqual(keyTarget(mergeSettings([user({ 'model.provider': 'anthropic' }), workspace({ 'model.baseUrl': 'https://proxy.example.com' })])).scope, 'workspace');
    assert.deepEqual(keyTarget(mergeSettings([])), { baseUrl: 'https://api.openai.com/v1', scope: 'default', origin: 'default' });
  });

  it('the CLI takes ANTHROPIC_API_KEY for the anthropic provider where it takes OPENAI_API_KEY otherwise, and says so when there is none', () => {
    const saved = { a: process.env.ANTHROPIC_API_KEY, o: process.env.OPENAI_API_KEY, h: process.env.SNOWPEA_HOME };
    try {
      process.env.ANTHROPIC_API_KEY = 'sk-ant-from-env';
      process.env.OPENAI_API_KEY = 'sk-openai-from-env';
      process.env.SNOWPEA_HOME = '/nonexistent-snowpea-home';
      const settings = mergeSettings([user({ 'model.provider': 'anthropic' })]).settings;
      assert.equal(cliApiKey({}, recordingLogger(), keyEnvVar(settings)), 'sk-ant-from-env');
      assert.equal(cliApiKey({}, recordingLogger()), 'sk-openai-from-env');
      assert.equal(cliApiKey({ 'api-key': 'sk-flag' }, recordingLogger(), 'ANTHROPIC_API_KEY'), 'sk-flag');
      delete process.env.ANTHROPIC_API_KEY;
      assert.equal(cliApiKey({}, recordingLogger(), 'ANTHROPIC_API_KEY'), 'none', 'never the OpenAI key');
    } finally {
      for (const [k, v] of [['ANTHROPIC_API_KEY', saved.a], ['OPENAI_API_KEY', saved.o], ['SNOWPEA_HOME', saved.h]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    assert.match(missingKeyProblem('https://api.anthropic.com', 'none', 'ANTHROPIC_API_KEY') ?? '', /^no API key is set for https:\/\/api\.anthropic\.com: .*set ANTHROPIC_API_KEY/);
    assert.equal(missingKeyProblem('https://gateway.example.com', 'none', 'ANTHROPIC_API_KEY'), null);
  });

  it('setup asks for a key until there is one', () => {
    const p = coreProviders().get('anthropic');
    const s = mergeSettings([user({ 'model.provider': 'anthropic' })]).settings;
    assert.deepEqual(p.setup(s, undefined), { needsKey: true });
    assert.deepEqual(p.setup(s, 'sk-ant-x'), { needsKey: false });
    assert.equal(p.usesApiKey, true);
  });
});
