import assert from 'node:assert/strict';
import type { BudgetRequestMessage } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';

/** The next request over the turn's budget: $0.0040 expected, 9,600 of its 12,000 input tokens from the cache. */
const PAUSE: BudgetRequestMessage = { type: 'budget.request', id: 'b1', model: 'gpt-4o', cost: 0.004, promptTokens: 12_000, cachedTokens: 9_600, passes: [{ scope: 'turn', limit: 0.05, spent: 0.048 }] };

const NEXT = { type: 'cost.next', round: 2, promptTokens: 12_000, cachedTokens: 9_600, outputTokens: 300, cost: 0.004, budget: { turn: { spent: 0.048, limit: 0.05 }, session: { spent: 0.31, limit: null } } } as const;

describe('webview: the money budget (pause card, expected cost on the meter)', function () {
  const env = useWebviewEnv();

  it('the pause card says what the next request costs, how much the cache should serve and which budget it passes; Continue once answers', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'go' });
    await chat.host(PAUSE);
    const card = chat.page.locator('[data-kind="budget"]');
    await card.waitFor();
    assert.equal(
      await card.locator('[data-kind="budget-text"]').innerText(),
      "The next request to gpt-4o (~$0.0040, 80% of its prompt expected from the cache) would pass this turn's budget of $0.050 ($0.048 spent).",
    );
    await card.getByRole('button', { name: 'Continue once' }).click();
    assert.deepEqual((await chat.waitForPosted('budget.reply'))[0], { type: 'budget.reply', id: 'b1', decision: 'continue' });
    await card.waitFor({ state: 'detached' });
  });

  it('Raise checks the new amount lets the request go, then posts the raised budgets; both fields when both budgets are passed', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'go' });
    await chat.host({ ...PAUSE, passes: [{ scope: 'turn', limit: 0.05, spent: 0.048 }, { scope: 'session', limit: 1, spent: 0.999 }] });
    const card = chat.page.locator('[data-kind="budget"]');
    const turn = card.getByRole('textbox', { name: 'New turn budget' });
    const session = card.getByRole('textbox', { name: 'New session budget' });
    assert.equal(await turn.inputValue(), '0.10', 'twice the budget, offered');
    assert.equal(await session.inputValue(), '2.00');
    assert.match(await card.innerText(), /this turn's budget of \$0\.050 \(\$0\.048 spent\) and this session's budget of \$1\.00 \(\$0\.999 spent\)/);
    const raise = card.getByRole('button', { name: 'Raise and continue' });
    await turn.fill('0.05');
    assert.equal(await card.locator('[data-kind="budget-problem"]').innerText(), 'A turn budget of $0.050 would stop this request again: it needs more than $0.052.');
    assert.equal(await raise.isDisabled(), true);
    await turn.fill('lots');
    assert.match(await card.locator('[data-kind="budget-problem"]').innerText(), /Give the new turn budget as an amount, e\.g\. 0\.10\./);
    await turn.fill('0.25');
    await card.locator('[data-kind="budget-problem"]').waitFor({ state: 'detached' });
    await raise.click();
    assert.deepEqual((await chat.waitForPosted('budget.reply'))[0], { type: 'budget.reply', id: 'b1', decision: 'raise', turn: 0.25, session: 2 });
    await card.waitFor({ state: 'detached' });
  });

  it('Stop answers stop; the card marks hidden characters in the model name; it comes back after a reload and goes at the turn\'s end', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'go' });
    await chat.host({ ...PAUSE, model: 'gpt\u202e-4o' });
    const card = chat.page.locator('[data-kind="budget"]');
    assert.equal(await card.locator('.hidden-char').count(), 1, 'the bidi override shows as a chip');
    // The view reloads mid-pause: the host replays init (running) and the pause.
    await chat.init({ running: true });
    await chat.host(PAUSE);
    assert.equal(await card.count(), 1);
    await card.getByRole('button', { name: 'Stop' }).click();
    assert.deepEqual((await chat.waitForPosted('budget.reply'))[0], { type: 'budget.reply', id: 'b1', decision: 'stop' });
    await chat.host(PAUSE);
    await card.waitFor();
    await chat.events(
      { type: 'error', message: 'Stopped at the budget: the next request (~$0.0040, 80% of its prompt expected from the cache) would pass this turn\'s budget of $0.050 ($0.048 spent).', kind: 'budget' },
      { type: 'turn.end', reason: 'budget', rounds: 1 },
    );
    await card.waitFor({ state: 'detached' });
    const error = chat.items('error');
    assert.match(await error.innerText(), /Stopped at the budget/);
    assert.equal(await error.getByRole('button', { name: 'Retry' }).count(), 0, 'a budget stop is not retried: the next message goes on');
  });

  it('the meter shows the next request\'s expected cost and cache hit while it is out, then what it cost beside what was expected', async () => {
    const chat = await env.open();
    await chat.init();
    const meter = chat.page.locator('[data-kind="meter"]');
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'go' }, { ...NEXT, round: 1, cachedTokens: 0, cost: 0.03 });
    // The first request of a chat: the meter appears with its expectation before any round is measured.
    await meter.waitFor();
    assert.equal(await meter.textContent(), 'next ~$0.030 (0% cached)');
    await chat.events({ type: 'usage', round: 1, usage: { promptTokens: 11_000, completionTokens: 400, cachedTokens: 0 } });
    const cost1 = { cached: 0, uncached: 0.0275, output: 0.004, round: 0.0315, session: 0.0315, sessionEverything: 0.04 };
    await chat.host({ type: 'meter', sessionId: 's1', round: 1, promptTokens: 11_000, cachedTokens: 0, contextWindow: 128_000, cost: cost1 });
    await chat.page.locator('[data-kind="meter"]', { hasText: 'session' }).waitFor();
    await chat.events(NEXT);
    await chat.page.locator('[data-kind="meter-next"]').waitFor();
    assert.equal(await meter.textContent(), 'next ~$0.0040 (80% cached) · 9% of 128k · 0% cached');
    assert.match((await meter.getAttribute('title')) ?? '', /^Round 2, expected before sending: ~\$0\.0040 for ~12,000 input tokens, ~9,600 from the cache \(80%\), ~300 output tokens; budget: this turn \$0\.048 of \$0\.050, this session \$0\.31/);
    await chat.events({ type: 'usage', round: 2, usage: { promptTokens: 12_100, completionTokens: 280, cachedTokens: 9_472 } });
    const cost2 = { cached: 0.0024, uncached: 0.0013, output: 0.0005, round: 0.0042, session: 0.0357, sessionEverything: 0.05 };
    await chat.host({ type: 'meter', sessionId: 's1', round: 2, promptTokens: 12_100, cachedTokens: 9_472, contextWindow: 128_000, cost: cost2 });
    await chat.page.locator('[data-kind="meter-next"]').waitFor({ state: 'detached' });
    assert.equal(await meter.textContent(), '~$0.0042 (session $0.036) · 9% of 128k · 78% cached');
    await meter.click();
    const details = await chat.page.locator('[data-kind="meter-details"] .meter-detail-line').allInnerTexts();
    assert.deepEqual(details.slice(0, 2), [
      'Round 2, expected before sending: ~$0.0040 for ~12,000 input tokens, ~9,600 from the cache (80%), ~300 output tokens; it cost $0.0042 with 78% cached',
      'budget: this turn $0.048 of $0.050, this session $0.310',
    ]);
  });

  it('a budget the model cannot be held to is said once in the chat', async () => {
    const chat = await env.open();
    await chat.init();
    const text = 'Your budget (agent.budget) cannot be enforced: Snowpea has no price for the model "local-llama"; set snowpea.model.inputPrice and snowpea.model.outputPrice to hold it to one.';
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'go' }, { type: 'budget.notice', text });
    const notice = chat.items('notice');
    await notice.waitFor();
    assert.equal(await notice.innerText(), text);
  });
});
