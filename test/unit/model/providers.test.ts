import assert from 'node:assert/strict';
import { cliModelClient } from '../../../extension/cli/setup';
import { coreProviders, ProviderTable, UnknownProviderError, type ModelProvider } from '../../../extension/core/model/providers';
import { mergeSettings } from '../../../extension/core/settings/load';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';
import { recordingLogger } from '../../fixtures/recording-logger';

const settingsWith = (values: Record<string, unknown>) => mergeSettings([{ name: 'test', values }]).settings;

describe('model providers: a table from provider name to client, model list and setup', () => {
  let server: ScriptedServer;
  beforeEach(async () => (server = await startScriptedServer({ models: ['zeta-model', 'alpha-model'] })));
  afterEach(() => server.close());

  it('the core table has the OpenAI-compatible and Anthropic providers and no vscode-lm; an unknown name is an error naming the known ones', () => {
    const table = coreProviders();
    assert.deepEqual(table.names(), ['anthropic', 'openai-compatible']);
    assert.equal(table.has('vscode-lm'), false);
    assert.throws(
      () => table.get('vscode-lm'),
      (e: Error) => e instanceof UnknownProviderError && e.message === 'model.provider "vscode-lm" is not available here; the known providers are: anthropic, openai-compatible',
    );
  });

  it('a host registers its own row once; disposing the registration takes it out again', () => {
    const table = coreProviders();
    const row: ModelProvider = { usesApiKey: false, createClient: () => assert.fail('not called'), listModels: async () => ['m'], setup: () => ({ needsKey: false }) };
    const registration = table.register('vscode-lm', row);
    assert.equal(table.get('vscode-lm'), row);
    assert.deepEqual(table.names(), ['anthropic', 'openai-compatible', 'vscode-lm']);
    assert.throws(() => table.register('vscode-lm', row), /registered already/);
    registration.dispose();
    assert.throws(() => table.get('vscode-lm'), UnknownProviderError);
    assert.throws(() => new ProviderTable().get('x'), /the known providers are: none/);
  });

  it('openai-compatible: its client talks to model.baseUrl with the key, and its models are the endpoint\'s /models, sorted', async () => {
    const provider = coreProviders().get('openai-compatible');
    const s = settingsWith({ 'model.baseUrl': server.baseUrl, 'model.name': 'alpha-model', 'model.maxRetries': 0 });
    const client = provider.createClient(s, 'sk-row', recordingLogger());
    assert.equal(client.model, 'alpha-model');
    server.enqueue({ text: 'pong' });
    const r = await client.complete({ messages: [{ role: 'user', content: 'ping' }], tools: [] }, {}, new AbortController().signal);
    assert.equal(r.text, 'pong');
    assert.equal(server.chatRequests()[0].headers.authorization, 'Bearer sk-row');
    assert.deepEqual(await provider.listModels(s, 'sk-row'), ['alpha-model', 'zeta-model']);
  });

  it('openai-compatible setup: OpenAI\'s own endpoint needs a key; a key, or another endpoint, needs none', () => {
    const provider = coreProviders().get('openai-compatible');
    const openai = settingsWith({});
    assert.deepEqual(provider.setup(openai, undefined), { needsKey: true });
    assert.deepEqual(provider.setup(openai, 'none'), { needsKey: true }, '"none" is what goes out when there is no key');
    assert.deepEqual(provider.setup(openai, 'sk-x'), { needsKey: false });
    assert.deepEqual(provider.setup(settingsWith({ 'model.baseUrl': 'http://127.0.0.1:11434/v1' }), undefined), { needsKey: false });
    assert.deepEqual(provider.setup(settingsWith({ 'model.baseUrl': 'https://api.openai.com.example.net/v1' }), undefined), { needsKey: false }, 'the origin decides, not a substring');
  });

  it('the CLI has no vscode-lm: it says so, naming the providers it has, and uses the OpenAI-compatible endpoint', async () => {
    const log = recordingLogger();
    const client = cliModelClient(settingsWith({ 'model.provider': 'vscode-lm', 'model.baseUrl': server.baseUrl, 'model.name': 'alpha-model', 'model.maxRetries': 0 }), 'sk-cli', log);
    assert.ok(log.lines.some((l) => l.startsWith('warn: model.provider "vscode-lm" is not available here; the known providers are: anthropic, openai-compatible; the CLI uses the OpenAI-compatible endpoint')), log.lines.join('\n'));
    server.enqueue({ text: 'from the endpoint' });
    const r = await client.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, {}, new AbortController().signal);
    assert.equal(r.text, 'from the endpoint');
  });
});
