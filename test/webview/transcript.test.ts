import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

describe('webview: tool cards, chips, banners and host requests', function () {
  const env = useWebviewEnv();

  it('shows tool calls as one-line cards with running, ok and error states', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events(
      { type: 'turn.start', turn: 1, prompt: 'look around' },
      { type: 'text.delta', text: 'Let me look.' },
      { type: 'tool.call', callId: 'c1', tool: 'read_file', args: '{"path":"src/app.ts"}', title: 'read src/app.ts', summary: '' },
    );
    const card = chat.toolCard('c1');
    await card.waitFor();
    assert.equal(await card.getAttribute('data-status'), 'running');
    assert.equal(await card.locator('.tool-title').innerText(), 'read src/app.ts');
    assert.equal(await card.locator('.tool-summary').innerText(), '');

    await chat.events(
      { type: 'tool.output', callId: 'c1', chunk: 'line 1\n' },
      { type: 'tool.result', callId: 'c1', tool: 'read_file', ok: true, summary: 'read src/app.ts (120 lines)' },
      { type: 'tool.call', callId: 'c2', tool: 'bash', args: '{"command":"npm test"}', title: 'bash', summary: 'npm test' },
      { type: 'tool.result', callId: 'c2', tool: 'bash', ok: false, summary: 'exit code 1', errorCode: 'EXIT_1' },
      { type: 'text.delta', text: 'The tests fail.' },
    );
    await chat.page.locator('.tool-card[data-call-id="c2"][data-status="error"]').waitFor();
    assert.equal(await card.getAttribute('data-status'), 'ok');
    assert.equal(await card.locator('.tool-summary').innerText(), 'read src/app.ts (120 lines)');
    assert.equal(await chat.toolCard('c2').locator('.tool-error-code').innerText(), 'EXIT_1');
    // Text, tools, then the next round's text as its own message, in order.
    const kinds = await chat.page.locator('.transcript-row > [data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    assert.deepEqual(kinds, ['user', 'assistant', 'tool', 'tool', 'assistant']);
    const cardHeight = await card.evaluate((el) => el.getBoundingClientRect().height);
    const lineHeight = await card.locator('.tool-title').evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(cardHeight < lineHeight * 2, `a tool card is one line (card ${cardHeight}px, line ${lineHeight}px)`);

    await chat.events({ type: 'tool.call', callId: 'c3', tool: 'grep', args: '{}', title: 'grep', summary: '' }, { type: 'turn.end', reason: 'cancelled', rounds: 2 });
    await chat.page.locator('.tool-card[data-call-id="c3"][data-status="stopped"]').waitFor();
  });

  it('shows loaded tools as a chip, the loop banner and errors', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events(
      { type: 'turn.start', turn: 1, prompt: 'commit it' },
      { type: 'tools.loaded', tools: ['git_diff', 'git_commit'] },
      { type: 'loop.suspected', tool: 'read_file', count: 3 },
      { type: 'error', message: 'The endpoint returned 500 for model test-model', kind: 'server' },
    );
    await chat.items('tools.loaded').waitFor();
    assert.equal(await chat.items('tools.loaded').innerText(), 'loaded git_diff, git_commit');
    assert.equal((await chat.page.locator('.composer .tools-count').innerText()).trim(), '4', 'the composer counts the loaded tools');

    const banner = chat.page.locator('[data-kind="loop"]');
    assert.match(await banner.innerText(), /read_file was called 3 times/);
    assert.equal(await chat.items('error').innerText(), 'The endpoint returned 500 for model test-model');

    await chat.host({ type: 'error', message: 'Could not save the session' });
    await chat.page.locator('[data-kind="error"]', { hasText: 'Could not save the session' }).waitFor();

    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
  });

  it('ignores invalid host messages without breaking the UI', async () => {
    const chat = await env.open();
    await chat.init();
    const bad: unknown[] = [
      null,
      'text.delta',
      { type: 'nope' },
      { type: 'event', event: { type: 'text.delta', sessionId: 's1', text: 42 } },
      { type: 'event', event: { type: 'text.delta', text: 'no session id' } },
      { type: 'event', event: { type: 'tool.call', sessionId: 's1', callId: 'x', tool: 'rm' } },
      { type: 'init', sessionId: 7 },
    ];
    for (const m of bad) await chat.hostRaw(m);
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'still alive?' }, { type: 'text.delta', text: 'Yes, *still* here.' });
    await chat.page.locator('[data-kind="assistant"] em').waitFor();
    assert.equal(await chat.items('assistant').innerText(), 'Yes, still here.');
    assert.equal(await chat.page.locator('.tool-card').count(), 0);
    assert.deepEqual(chat.pageErrors, []);
    const warnings = chat.consoleOf('warning').filter((w) => w.includes('[snowpea] ignored invalid host message'));
    assert.equal(warnings.length, bad.length, warnings.join('\n'));
    // The UI still works both ways.
    await chat.events({ type: 'turn.end', reason: 'done', rounds: 1 });
    await chat.composer.fill('next');
    await chat.page.keyboard.press('Enter');
    await chat.waitForPosted('send');
  });

  it('ignores events of another session', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.host({ type: 'event', event: { type: 'text.delta', sessionId: 'old-session', text: 'stale' } });
    await chat.events({ type: 'text.delta', text: 'fresh' });
    await chat.items('assistant').waitFor();
    assert.equal(await chat.items('assistant').innerText(), 'fresh');
  });

  it('answers approvals and questions inline', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({ type: 'approval.request', id: 'a1', tool: 'write_file', summary: 'write .env', reason: '.env is a protected path' });
    await chat.host({ type: 'ask.request', id: 'q1', question: 'Which database?', choices: ['sqlite', 'postgres'] });
    const approval = chat.page.locator('[data-kind="approval"]');
    assert.match(await approval.innerText(), /protected path/);
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await chat.page.getByRole('button', { name: 'postgres' }).click();
    assert.deepEqual((await chat.waitForPosted('approval.reply'))[0], { type: 'approval.reply', id: 'a1', decision: 'allow' });
    assert.deepEqual((await chat.waitForPosted('ask.reply'))[0], { type: 'ask.reply', id: 'q1', answer: 'postgres' });
    await chat.page.locator('.requests').waitFor({ state: 'detached' });
  });

  it('shows the setup card and Restricted Mode from init', async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: true, workspaceTrusted: false });
    await chat.page.locator('[data-kind="setup"]').waitFor();
    assert.match(await chat.page.locator('[data-kind="restricted"]').innerText(), /Restricted Mode/);
  });

  it("the setup card's buttons run Set API Key and Open Settings in the host", async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: true });
    const card = chat.page.locator('[data-kind="setup"]');
    await card.getByRole('button', { name: 'Set API Key' }).click();
    await card.getByRole('button', { name: 'Open Settings' }).click();
    const posted = await chat.waitForPosted('runCommand', 2);
    assert.deepEqual(posted, [
      { type: 'runCommand', command: 'snowpea.setApiKey' },
      { type: 'runCommand', command: 'snowpea.openSettings' },
    ]);
  });

  it('a header message updates the title, model, setup card and trust notice, keeping the conversation', async () => {
    const chat = await env.open();
    await chat.init({ setupNeeded: true, workspaceTrusted: false });
    await chat.events({ type: 'turn.start', turn: 1, prompt: 'hello there' }, { type: 'text.delta', text: 'Hi!' }, { type: 'turn.end', reason: 'done', rounds: 1 });
    await chat.page.getByText('Hi!').waitFor();
    const header = { type: 'header' as const, sessionId: chat.sessionId, workspaceTrusted: true, setupNeeded: false, supportsImages: true };
    await chat.host({ ...header, title: 'hello there', model: 'other-model' });
    await chat.page.locator('.chat-title', { hasText: 'hello there' }).waitFor();
    await chat.page.locator('[data-kind="setup"]').waitFor({ state: 'detached' });
    assert.equal(await chat.page.locator('[data-kind="restricted"]').count(), 0);
    assert.match(await chat.page.locator('.composer .model').innerText(), /other-model/);
    assert.equal(await chat.page.getByText('Hi!').count(), 1, 'the conversation stays');
    // Another session's header changes nothing.
    await chat.host({ ...header, sessionId: 'someone-else', title: 'not this one', model: 'm2' });
    await chat.host({ ...header, title: 'hello there', model: 'other-model' });
    assert.equal(await chat.page.locator('.chat-title', { hasText: 'not this one' }).count(), 0);
  });
});
