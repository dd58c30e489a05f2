import assert from 'node:assert/strict';
import { parseWebviewMessage, type TranscriptEntry } from '../../extension/protocol';
import { useWebviewEnv } from './harness/suite';

const SUMMARY = '## Task\nAdd a **login** form.\n\n## Files\n- `src/login.ts`: created';

/** The divider's line, its summary once opened, and where it sits among the transcript's rows. */
async function dividerView(chat: Awaited<ReturnType<ReturnType<typeof useWebviewEnv>['open']>>) {
  const divider = chat.items('compaction');
  await divider.waitFor();
  const line = (await divider.locator('.compaction-line').innerText()).trim();
  await divider.locator('.compaction-line').click();
  const body = divider.getByRole('region', { name: 'Summary of the earlier conversation' });
  await body.waitFor();
  const kinds = await chat.page.locator('.transcript-row').evaluateAll((rows) => rows.map((r) => r.querySelector('[data-kind]')?.getAttribute('data-kind')));
  return { divider, line, body, bodyText: await body.innerText(), kinds };
}

describe('webview: compaction, /compact and the context window meter (issue 20)', function () {
  const env = useWebviewEnv();

  it('issue 20: a live compaction shows the divider "Conversation compacted: 96k → 11k tokens" that opens to the summary as Markdown', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events(
      { type: 'turn.start', turn: 1, prompt: 'add a login form' },
      { type: 'text.delta', text: 'Working on it.' },
      { type: 'compaction', trigger: 'auto', tokensBefore: 96_400, tokensAfter: 11_200, rounds: 14, summary: SUMMARY, model: 'test-model' },
      { type: 'text.delta', text: 'Carrying on.' },
    );
    const view = await dividerView(chat);
    assert.equal(view.line, 'Conversation compacted: 96k → 11k tokens');
    assert.deepEqual(view.kinds, ['user', 'assistant', 'compaction', 'assistant'], 'the divider ends the text before it; text after it is a new message');
    assert.equal(await view.body.locator('h2').first().innerText(), 'Task');
    assert.equal(await view.body.locator('strong').innerText(), 'login');
    assert.match(view.bodyText, /14 earlier model rounds summarized as the request neared the context window/);
    assert.equal(await view.divider.locator('.compaction-line').getAttribute('aria-expanded'), 'true');
    await view.divider.locator('.compaction-line').click();
    await view.body.waitFor({ state: 'detached' });
    assert.deepEqual(chat.pageErrors, []);
  });

  it('issue 20: a replayed compaction shows the same divider at the same place, opening to the same summary', async () => {
    const live = await env.open();
    await live.init();
    await live.events(
      { type: 'turn.start', turn: 1, prompt: 'add a login form' },
      { type: 'text.delta', text: 'Done.' },
      { type: 'turn.end', reason: 'done', rounds: 1 },
      { type: 'compaction', trigger: 'manual', tokensBefore: 40_600, tokensAfter: 3_100, rounds: 1, summary: SUMMARY, model: 'test-model', focus: 'keep the API design' },
    );
    const liveView = await dividerView(live);

    const replayed = await env.open();
    await replayed.init();
    const entries: TranscriptEntry[] = [
      { role: 'user', text: 'add a login form' },
      { role: 'assistant', text: 'Done.' },
      { role: 'compaction', trigger: 'manual', tokensBefore: 40_600, tokensAfter: 3_100, rounds: 1, summary: SUMMARY, focus: 'keep the API design' },
    ];
    await replayed.host({ type: 'transcript', sessionId: 's1', entries });
    const replayView = await dividerView(replayed);

    assert.equal(replayView.line, 'Conversation compacted: 41k → 3k tokens');
    assert.equal(replayView.line, liveView.line);
    assert.deepEqual(replayView.kinds, ['user', 'assistant', 'compaction']);
    assert.deepEqual(replayView.kinds, liveView.kinds);
    assert.equal(replayView.bodyText, liveView.bodyText);
    assert.match(replayView.bodyText, /Asked to keep: keep the API design/);
    assert.equal(await replayView.divider.evaluate((el) => el.outerHTML), await liveView.divider.evaluate((el) => el.outerHTML), 'live and replayed dividers are drawn alike');
  });

  it('issue 20: a message sent while /compact runs (the host holds it) shows after the divider, as a replay would', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'first' }, { type: 'text.delta', text: 'One.' }, { type: 'turn.end', reason: 'done', rounds: 1 });
    await chat.typeInComposer('/compact');
    await chat.page.keyboard.press('Enter');
    await chat.waitForPosted('compact');
    await chat.typeInComposer('next question');
    await chat.page.keyboard.press('Enter');
    await chat.waitForPosted('send');
    await chat.events(
      { type: 'compaction', trigger: 'manual', tokensBefore: 5_000, tokensAfter: 1_000, rounds: 1, summary: 'S', model: 'test-model' },
      { type: 'turn.start', turn: 2, prompt: 'next question' },
    );
    const view = await dividerView(chat);
    assert.deepEqual(view.kinds, ['user', 'assistant', 'compaction', 'user']);
    await chat.page.locator('[data-kind="user"]:not([data-pending])', { hasText: 'next question' }).waitFor();
    assert.equal(await chat.items('user').count(), 2, 'turn.start confirms the held message in place');
  });

  it('issue 20: the fallback divider says older rounds were omitted, and why', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'compaction', trigger: 'fallback', tokensBefore: 30_000, tokensAfter: 900, rounds: 6, summary: '', model: 'test-model', failure: 'the endpoint returned 500' });
    const view = await dividerView(chat);
    assert.equal(view.line, 'Conversation compacted: 30k → 900 tokens, older rounds omitted');
    assert.equal(await chat.page.getByRole('status').innerText(), 'Conversation compacted: 30k → 900 tokens, older rounds omitted.', 'a screen reader hears it');
    assert.match(view.bodyText, /6 earlier model rounds omitted from later requests because the summary could not be written \(the endpoint returned 500\)/);
    assert.equal(await view.body.locator('.markdown').count(), 0, 'no summary to render');
  });

  it('issue 20: /compact with focus text sends `compact` with the focus, clears the draft and adds no message', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.typeInComposer('/compact keep the API design');
    await chat.page.keyboard.press('Enter');
    const [compact] = await chat.waitForPosted('compact');
    assert.deepEqual(compact, { type: 'compact', focus: 'keep the API design' });
    assert.ok(parseWebviewMessage(compact).ok);
    assert.equal(await chat.composer.inputValue(), '');
    assert.equal(await chat.items('user').count(), 0, '/compact is a command, not a message to the model');
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 0);

    // Without focus; and while a turn runs the host is asked anyway (it says to wait or stop).
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'work' });
    await chat.typeInComposer('/compact');
    await chat.page.keyboard.press('Enter');
    const both = await chat.waitForPosted('compact', 2);
    assert.deepEqual(both[1], { type: 'compact' });

    // Not the command: sent as typed.
    await chat.events({ type: 'turn.end', reason: 'done', rounds: 1 });
    await chat.typeInComposer('/compactly please');
    await chat.page.keyboard.press('Enter');
    const [send] = await chat.waitForPosted('send');
    assert.equal(send.text, '/compactly please');
  });

  it('issue 20: the meter shows how full the context window is and at what fill the conversation compacts', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'go' }, { type: 'usage', round: 1, usage: { promptTokens: 79_360, completionTokens: 90, cachedTokens: 39_680 } });
    await chat.host({ type: 'meter', sessionId: 's1', round: 1, promptTokens: 79_360, cachedTokens: 39_680, contextWindow: 128_000, compactAtTokens: 99_123 });
    const meter = chat.page.locator('[data-kind="meter"]', { hasText: 'compacts' });
    await meter.waitFor();
    assert.equal(await meter.innerText(), '62% of 128k · compacts at 77% · 50% cached');
    assert.match((await meter.getAttribute('title')) ?? '', /^Round 1: 79,360 input tokens, 39,680 from the cache/);
    assert.match((await meter.getAttribute('title')) ?? '', /62% of the 128k context window \(a request over ~99k tokens, 77%, compacts the conversation first\)/);
  });
});
