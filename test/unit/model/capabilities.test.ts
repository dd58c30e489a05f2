import assert from 'node:assert/strict';
import { bareModelName, lookupModel, modelCapabilities, unknownModelDefaults } from '../../../extension/core/model/capabilities';

describe('model capabilities', () => {
  const cases: Array<[string, number, boolean]> = [
    ['gpt-4o', 128_000, true],
    ['gpt-4o-mini', 128_000, true],
    ['gpt-4.1', 1_047_576, true],
    ['gpt-4.1-nano-2025-04-14', 1_047_576, true],
    ['gpt-4', 8_192, false],
    ['gpt-5-mini', 272_000, true],
    ['o3', 200_000, true],
    ['o3-mini', 200_000, false],
    ['o4-mini', 200_000, true],
    ['claude-sonnet-4-5', 200_000, true],
    ['anthropic/claude-3.5-sonnet', 200_000, true],
    ['gemini-2.5-pro', 1_048_576, true],
    ['llama3.1:8b', 131_072, false],
    ['llama3:8b', 8_192, false],
    ['meta-llama/Llama-3.3-70B-Instruct', 131_072, false],
    ['qwen2.5-coder:7b', 32_768, false],
    ['qwen3-coder:30b', 262_144, false],
    ['deepseek-chat', 128_000, false],
    ['deepseek-coder-v2:16b', 131_072, false],
    ['mistral-large-latest', 131_072, false],
    ['mistral:7b', 32_768, false],
    ['codestral-latest', 256_000, false],
  ];
  for (const [name, ctx, img] of cases) {
    it(`knows ${name}`, () => {
      const c = modelCapabilities(name);
      assert.deepEqual([c.contextWindow, c.supportsImages, c.known], [ctx, img, true]);
    });
  }

  it('strips provider prefixes and case', () => {
    assert.equal(bareModelName(' OpenRouter/OpenAI/GPT-4o '), 'gpt-4o');
    assert.equal(lookupModel('OPENAI/GPT-4O')?.contextWindow, 128_000);
  });

  it('gives unknown models conservative defaults and says so', () => {
    const c = modelCapabilities('my-finetune-7b');
    assert.equal(c.known, false);
    assert.equal(c.matched, null);
    assert.equal(c.contextWindow, unknownModelDefaults.contextWindow);
    assert.equal(c.supportsImages, false);
  });

  it('settings override the table when not null', () => {
    assert.deepEqual(
      modelCapabilities('gpt-4o', { 'model.contextWindow': 50_000, 'model.supportsImages': false }),
      { contextWindow: 50_000, supportsImages: false, known: true, matched: lookupModel('gpt-4o')!.matched },
    );
    const unknown = modelCapabilities('local-vision', { 'model.contextWindow': null, 'model.supportsImages': true });
    assert.equal(unknown.supportsImages, true);
    assert.equal(unknown.contextWindow, unknownModelDefaults.contextWindow);
    assert.equal(unknown.known, false);
    assert.equal(modelCapabilities('gpt-4o', { 'model.contextWindow': null, 'model.supportsImages': null }).contextWindow, 128_000);
  });
});
