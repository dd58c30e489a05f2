import assert from 'node:assert/strict';
import { effortInfo, modelChoiceSchema, reasoningControl, thinkingBudget, THINKING_BUDGET, withModelChoice } from '../../../extension/core/model/model-choice';
import { anthropicClientFromSettings } from '../../../extension/core/model/providers/anthropic';
import { clientFromSettings } from '../../../extension/core/model/providers/openai-compatible';
import { silentLogger } from '../../../extension/core/log';
import { mergeSettings } from '../../../extension/core/settings/load';
import type { Settings } from '../../../extension/core/settings/schema';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';
import { startReplayServer, type ReplayServer } from './anthropic/replay-server';

const settings = (values: Record<string, unknown> = {}): Settings => mergeSettings([{ name: 'test', values }]).settings;
const signal = () => new AbortController().signal;
const hello = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

describe('model choice: the composer\'s model picker and effort control (rules)', () => {
  it('which models take an effort, and how: reasoning_effort, a Claude thinking budget, or none', () => {
    const control = (provider: string, name: string, effort: string | null = null) => reasoningControl(settings({ 'model.provider': provider, 'model.name': name, 'model.reasoningEffort': effort }));
    const table: Array<[string, string, ReturnType<typeof reasoningControl>]> = [
      ['openai-compatible', 'gpt-4.1-mini', null],
      ['openai-compatible', 'o3-mini', 'effort'],
      ['openai-compatible', 'o1', 'effort'],
      ['openai-compatible', 'o1-mini', null],
      ['openai-compatible', 'o4-mini-2025-04-16', 'effort'],
      ['openai-compatible', 'gpt-5', 'effort'],
      ['openai-compatible', 'gpt-5-chat-latest', null],
      ['openai-compatible', 'openai/gpt-oss-120b', 'effort'],
      ['openai-compatible', 'gemini-2.5-pro', 'effort'],
      ['openai-compatible', 'gemini-2.0-flash', null],
      ['openai-compatible', 'grok-3-mini', 'effort'],
      ['openai-compatible', 'anthropic/claude-sonnet-4-5', null],
      ['anthropic', 'claude-sonnet-4-5', 'thinking'],
      ['anthropic', 'claude-opus-4-1-20250805', 'thinking'],
      ['anthropic', 'claude-3-7-sonnet-latest', 'thinking'],
      ['anthropic', 'claude-3-5-haiku-latest', null],
      ['vscode-lm', 'gpt-5', null],
    ];
    assert.deepEqual(
      table.map(([p, n]) => [p, n, control(p, n)]),
      table,
    );
    // The user set an effort themselves: any model gets the control (their word, not the table's).
    assert.equal(control('openai-compatible', 'my-local-reasoner', 'low'), 'effort');
    assert.equal(control('anthropic', 'claude-3-5-haiku-latest', 'low'), 'thinking');
  });

  it('a pick goes over the settings; an effort only to a model that takes one', () => {
    const base = settings({ 'model.name': 'gpt-4.1-mini' });
    assert.equal(withModelChoice(base, {}), base, 'nothing picked: the very settings');
    assert.equal(withModelChoice(base, { model: 'o4-mini' })['model.name'], 'o4-mini');
    const reasoner = withModelChoice(base, { model: 'o4-mini', effort: 'high' });
    assert.equal(reasoner['model.reasoningEffort'], 'high');
    const plain = withModelChoice(base, { model: 'gpt-4.1', effort: 'high' });
    assert.equal(plain['model.reasoningEffort'], null, 'gpt-4.1 would refuse reasoning_effort');
    assert.equal(base['model.name'], 'gpt-4.1-mini', 'the settings themselves are not changed');
  });

  it("the effort control's default says what it means", () => {
    assert.equal(effortInfo(settings({ 'model.name': 'gpt-4.1-mini' }), {}), undefined);
    assert.deepEqual(effortInfo(settings({ 'model.name': 'gpt-4.1-mini' }), { model: 'o3', effort: 'low' }), {
      control: 'effort',
      picked: 'low',
      defaultLabel: 'default',
      defaultMeans: "the model's own default (no reasoning_effort sent)",
    });
    const claude = { 'model.provider': 'anthropic', 'model.name': 'claude-sonnet-4-5' };
    assert.deepEqual(effortInfo(settings(claude), {}), { control: 'thinking', picked: null, defaultLabel: 'off', defaultMeans: 'no extended thinking' });
    assert.match(effortInfo(settings({ ...claude, 'model.thinkingBudgetTokens': 4096 }), {})!.defaultMeans, /a 4096-token thinking budget, from the model\.thinkingBudgetTokens setting/);
    assert.match(effortInfo(settings({ ...claude, 'model.reasoningEffort': 'medium' }), {})!.defaultMeans, /^medium, from the model\.reasoningEffort setting$/);
  });

  it('an effort is a thinking budget for Claude, over model.thinkingBudgetTokens', () => {
    assert.equal(thinkingBudget(settings({ 'model.thinkingBudgetTokens': 4096 })), 4096);
    assert.equal(thinkingBudget(settings({ 'model.thinkingBudgetTokens': 4096, 'model.reasoningEffort': 'high' })), THINKING_BUDGET.high);
    assert.equal(thinkingBudget(settings()), null);
  });

  it('a stored choice is checked: a model name is one printable word, an effort one of three', () => {
    assert.equal(modelChoiceSchema.safeParse({ model: 'openrouter/anthropic/claude-sonnet-4.5:beta', effort: 'medium' }).success, true);
    for (const bad of [{ model: 'two words' }, { model: 'evil\u202etxt' }, { model: '' }, { effort: 'max' }, { model: 'x'.repeat(201) }]) {
      assert.equal(modelChoiceSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});

describe('model choice: what the clients send', () => {
  let openai: ScriptedServer;
  let anthropic: ReplayServer;
  before(async () => {
    openai = await startScriptedServer();
    anthropic = await startReplayServer();
  });
  after(async () => {
    await openai.close();
    await anthropic.close();
  });

  it('OpenAI-compatible: the picked effort goes as reasoning_effort with the picked model; none when not picked', async () => {
    const base = settings({ 'model.baseUrl': openai.baseUrl, 'model.name': 'gpt-4.1-mini' });
    openai.enqueue({ text: 'thought hard' }, { text: 'plain' });
    await clientFromSettings(withModelChoice(base, { model: 'o4-mini', effort: 'high' }), 'sk-test', silentLogger).complete(hello, {}, signal());
    await clientFromSettings(base, 'sk-test', silentLogger).complete(hello, {}, signal());
    const [picked, plain] = openai.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body as Record<string, unknown>);
    assert.equal(picked!.model, 'o4-mini');
    assert.equal(picked!.reasoning_effort, 'high');
    assert.equal(plain!.model, 'gpt-4.1-mini');
    assert.equal('reasoning_effort' in plain!, false);
  });

  it("Anthropic: the picked effort is the request's thinking budget (max_tokens grows by as much)", async () => {
    const base = settings({ 'model.provider': 'anthropic', 'model.baseUrl': anthropic.baseUrl, 'model.name': 'claude-haiku-4-5', 'model.maxRetries': 0 });
    anthropic.enqueue({ recording: 'thinking-text-sonnet4' });
    await anthropicClientFromSettings(withModelChoice(base, { model: 'claude-sonnet-4-0', effort: 'medium' }), 'sk-ant-test', silentLogger).complete(hello, {}, signal());
    const body = anthropic.requests[0]!.body;
    assert.equal(body.model, 'claude-sonnet-4-0');
    assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: THINKING_BUDGET.medium });
    assert.equal(body.max_tokens, THINKING_BUDGET.medium + 8192);
  });
});
