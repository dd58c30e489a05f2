import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

describe('webview: tool cards, approvals and questions', function () {
  const env = useWebviewEnv();

  it('opens a card to the arguments and the result as the model saw it', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events(
      { type: 'turn.start', turn: 1, prompt: 'read it' },
      { type: 'tool.call', callId: 'c1', tool: 'read_file', args: '{"path":"src/app.ts","offset":10}', title: 'read src/app.ts (lines 10-)', summary: '' },
      { type: 'tool.result', callId: 'c1', tool: 'read_file', ok: true, summary: 'read src/app.ts (3 lines)', result: 'line 10\nline 11\nline 12' },
    );
    const card = chat.toolCard('c1');
    await card.locator('.tool-summary', { hasText: 'read src/app.ts (3 lines)' }).waitFor();
    assert.equal(await card.locator('.tool-title').innerText(), 'read src/app.ts (lines 10-)', 'the title from the event heads the card');
    assert.equal(await card.locator('.tool-details').count(), 0, 'closed: one line');
    const toggle = card.getByRole('button', { expanded: false });
    await toggle.click();
    await card.locator('.tool-details').waitFor();
    assert.equal(await card.getByRole('button').first().getAttribute('aria-expanded'), 'true');
    assert.equal(await card.locator('.tool-section-title').first().innerText(), 'Arguments to read_file', 'the tool itself is named in the details');
    assert.equal(await card.locator('.tool-args').innerText(), '{\n  "path": "src/app.ts",\n  "offset": 10\n}');
    assert.equal(await card.locator('.tool-result').innerText(), 'line 10\nline 11\nline 12');
    await card.locator('.tool-line').click();
    await card.locator('.tool-details').waitFor({ state: 'detached' });
  });

  it('shows pruned, stub and refused results on the card itself', async () => {
    const chat = await env.open();
    await chat.init();
    const full = Array.from({ length: 1000 }, (_, i) => `const big${i} = ${i};`).join('\n');
    const pruned = `[earlier read_file output pruned — ${full.length} chars; re-run the tool if you need it again]`;
    await chat.host({
      type: 'transcript',
      sessionId: 's1',
      entries: [
        { role: 'user', text: 'go' },
        { role: 'tool', callId: 'p1', tool: 'read_file', args: '{"path":"big.ts"}', title: 'read big.ts', summary: 'const big0 = 0;', result: full, ok: true },
        { role: 'tool', callId: 'p2', tool: 'read_file', args: '{"path":"ok.ts"}', title: 'read ok.ts', summary: 'read ok.ts', result: 'export {}', ok: true },
      ],
    });
    // The stored result is whole; the host's meter says which results later requests carry as stubs.
    await chat.host({ type: 'meter', sessionId: 's1', round: 8, promptTokens: 900, cachedTokens: 0, prunedResults: 1, prunedCalls: [{ callId: 'p1', stub: pruned }] });
    await chat.events(
      { type: 'tool.call', callId: 's1', tool: 'read_file', args: '{"path":"src/a.ts"}', title: 'read src/a.ts', summary: '' },
      {
        type: 'tool.result',
        callId: 's1',
        tool: 'read_file',
        ok: true,
        summary: 'unchanged since your earlier read_file of src/a.ts (120 lines, sha256 1a2b3c4d); the content in that result is still current',
      },
      { type: 'tool.call', callId: 's2', tool: 'grep', args: '{"pattern":"x"}', title: 'grep /x/', summary: '' },
      { type: 'tool.result', callId: 's2', tool: 'grep', ok: true, summary: 'same result as your earlier grep call (4 lines)' },
      { type: 'tool.call', callId: 'r1', tool: 'read_file', args: '{"path":"src/a.ts"}', title: 'read src/a.ts', summary: '' },
      { type: 'tool.result', callId: 'r1', tool: 'read_file', ok: false, summary: 'error (repeat_blocked): read src/a.ts 4 times', errorCode: 'repeat_blocked' },
    );
    await chat.toolCard('r1').waitFor();
    const states = await chat.page
      .locator('.tool-card')
      .evaluateAll((cards) => cards.map((c) => [c.getAttribute('data-call-id'), c.getAttribute('data-state'), c.querySelector('.tool-badge')?.textContent ?? null]));
    assert.deepEqual(states, [
      ['p1', 'pruned', 'pruned'],
      ['p2', null, null],
      ['s1', 'stub', 'stub'],
      ['s2', 'stub', 'stub'],
      ['r1', 'refused', 'refused'],
    ]);
    await chat.toolCard('p1').locator('.tool-line').click();
    assert.match(await chat.toolCard('p1').locator('.tool-state-note').innerText(), /pruned from later requests/);
    assert.equal(await chat.toolCard('p1').locator('.tool-pruned-stub').innerText(), pruned, 'what the model sees now');
    assert.equal(await chat.toolCard('p1').locator('.tool-result').innerText(), full, 'the full result stays viewable');
    assert.equal(await chat.toolCard('p2').locator('.tool-pruned-stub').count(), 0);
  });

  it('keeps a pruned card marked through later rounds, a replay and hide/show', async () => {
    const first = await env.open();
    await first.init();
    const stub = (n: number) => `[earlier shell output pruned — ${n} chars; re-run the tool if you need it again]`;
    await first.events(
      { type: 'turn.start', turn: 1, prompt: 'test it' },
      { type: 'tool.call', callId: 'c1', tool: 'shell', args: '{"command":"npm test"}', title: 'run: npm test', summary: '' },
      { type: 'tool.result', callId: 'c1', tool: 'shell', ok: true, summary: 'exit 0', result: 'y'.repeat(500) },
      { type: 'tool.call', callId: 'c2', tool: 'shell', args: '{"command":"npm run lint"}', title: 'run: npm run lint', summary: '' },
      { type: 'tool.result', callId: 'c2', tool: 'shell', ok: true, summary: 'exit 0', result: 'z'.repeat(700) },
    );
    await first.host({ type: 'meter', sessionId: 's1', round: 7, promptTokens: 10, cachedTokens: 0, prunedCalls: [{ callId: 'c1', stub: stub(500) }] });
    await first.page.locator('.tool-card[data-call-id="c1"][data-state="pruned"]').waitFor();
    assert.equal(await first.toolCard('c2').getAttribute('data-state'), null);
    // A later round prunes c2 too; a meter that lists fewer calls takes no mark away.
    await first.host({ type: 'meter', sessionId: 's1', round: 8, promptTokens: 10, cachedTokens: 0, prunedCalls: [{ callId: 'c1', stub: stub(500) }, { callId: 'c2', stub: stub(700) }] });
    await first.host({ type: 'meter', sessionId: 's1', round: 9, promptTokens: 10, cachedTokens: 0 });
    await first.page.locator('.tool-card[data-call-id="c2"][data-state="pruned"]').waitFor();
    assert.equal(await first.toolCard('c1').getAttribute('data-state'), 'pruned');
    // The host replays the stored session (results whole, no stubs): the marks stay.
    await first.host({
      type: 'transcript',
      sessionId: 's1',
      entries: [
        { role: 'user', text: 'test it' },
        { role: 'tool', callId: 'c1', tool: 'shell', args: '{"command":"npm test"}', title: 'run: npm test', summary: 'exit 0', result: 'y'.repeat(500), ok: true },
        { role: 'tool', callId: 'c2', tool: 'shell', args: '{"command":"npm run lint"}', title: 'run: npm run lint', summary: 'exit 0', result: 'z'.repeat(700), ok: true },
      ],
    });
    await first.events({ type: 'turn.end', reason: 'done', rounds: 9 });
    await first.page.waitForFunction(() => (globalThis as any).__fakeHost.state?.running === false);
    const saved = await first.savedState();

    // Hidden and shown again: the saved state comes back with the marks.
    const second = await env.open({ initialState: saved });
    await second.toolCard('c2').waitFor();
    const states = await second.page.locator('.tool-card').evaluateAll((cards) => cards.map((c) => [c.getAttribute('data-call-id'), c.getAttribute('data-state')]));
    assert.deepEqual(states, [
      ['c1', 'pruned'],
      ['c2', 'pruned'],
    ]);
    await second.toolCard('c2').locator('.tool-line').click();
    assert.equal(await second.toolCard('c2').locator('.tool-pruned-stub').innerText(), stub(700));
    assert.equal(await second.toolCard('c2').locator('.tool-result').innerText(), 'z'.repeat(700));
  });

  it('shows elapsed time and the streamed output while a tool runs, then its duration', async () => {
    const start = new Date('2030-01-01T10:00:00Z');
    const chat = await env.open({ clockAt: start });
    await chat.init({ running: true });
    await chat.events({ type: 'tool.call', callId: 'c1', tool: 'shell', args: '{"command":"npm test"}', title: 'run: npm test', summary: '' });
    const card = chat.toolCard('c1');
    await card.locator('.tool-elapsed').waitFor();
    assert.equal(await card.locator('.tool-title').innerText(), 'run: npm test', 'the title says what runs');
    assert.equal(await card.locator('.tool-summary').innerText(), '');

    await chat.events({ type: 'tool.output', callId: 'c1', chunk: '> snowpea@0.1.0 test\n' }, { type: 'tool.output', callId: 'c1', chunk: '  12 passing\n' });
    await card.locator('.tool-tail', { hasText: '12 passing' }).waitFor();
    await chat.page.clock.fastForward(95_000);
    await chat.page.waitForFunction(() => /^1m 3\ds$/.test((globalThis as any).document.querySelector('.tool-elapsed')?.textContent ?? ''));

    await card.locator('.tool-line').click();
    assert.equal(await card.locator('.tool-output').innerText(), '> snowpea@0.1.0 test\n  12 passing\n');
    assert.equal(await card.locator('.tool-section-title').nth(1).innerText(), 'Output so far');

    await chat.events({ type: 'tool.result', callId: 'c1', tool: 'shell', ok: true, summary: 'exit 0: 12 passing' });
    await chat.page.locator('.tool-card[data-status="ok"] .tool-tail').waitFor({ state: 'detached' });
    assert.match(await card.locator('.tool-elapsed').innerText(), /^1m 3\ds$/, 'the final duration stays');
    await chat.page.clock.fastForward(60_000);
    assert.match(await card.locator('.tool-elapsed').innerText(), /^1m 3\ds$/, 'and no longer ticks');
  });

  it('heads a card with the title core computed and shows the summary the event or replay carried, as is', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({
      type: 'transcript',
      sessionId: 's1',
      entries: [
        { role: 'user', text: 'go' },
        { role: 'tool', callId: 'r1', tool: 'shell', args: '{"command":"ls"}', title: 'run: ls', summary: 'exit 0: 3 files', result: 'a\nb\nc', ok: true },
        { role: 'tool', callId: 'r2', tool: 'read_file', args: '{"path": 3}', title: 'read_file', summary: '3' },
      ],
    });
    await chat.events({ type: 'tool.call', callId: 'c1', tool: 'read_file', args: '{"path":"x.ts"}', title: 'read x.ts', summary: 'as core said' });
    const line = (id: string) =>
      chat.toolCard(id).evaluate((el) => [el.querySelector('.tool-title')?.textContent, el.querySelector('.tool-title')?.getAttribute('title') ?? null, el.querySelector('.tool-summary')?.textContent]);
    await chat.toolCard('c1').waitFor();
    assert.deepEqual(await line('r1'), ['run: ls', 'run: ls (shell)', 'exit 0: 3 files'], 'a replayed card: its stored title, the tool named on hover');
    assert.deepEqual(await line('r2'), ['read_file', null, '3'], 'a call whose arguments did not parse: the name, and what was sent');
    assert.deepEqual(await line('c1'), ['read x.ts', 'read x.ts (read_file)', 'as core said'], 'the running summary is the event’s, not one the webview made from the arguments');
    // A result whose call this view never saw (a reload mid-tool) has no title yet: the tool's name heads it.
    await chat.events({ type: 'tool.result', callId: 'c9', tool: 'grep', ok: true, summary: 'found 2' });
    await chat.toolCard('c9').waitFor();
    assert.deepEqual(await line('c9'), ['grep', null, 'found 2']);
  });

  it('posts the right reply for each approval button and shows why a protected path asks', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({ type: 'approval.request', id: 'a1', tool: 'shell', summary: 'npm install left-pad\n&& npm test' });
    await chat.host({ type: 'approval.request', id: 'a2', tool: 'write_file', summary: 'write src/x.ts' });
    await chat.host({
      type: 'approval.request',
      id: 'a3',
      tool: 'write_file',
      summary: 'write .env',
      reason: '.env is a protected path: Snowpea always asks before writing it',
      alwaysAsk: true,
    });
    const cards = chat.page.locator('[data-kind="approval"]');
    assert.equal(await cards.count(), 3);
    assert.equal(await cards.nth(0).locator('.request-summary').innerText(), 'npm install left-pad\n&& npm test', 'the whole command');
    assert.match(await cards.nth(2).locator('[data-kind="approval-reason"]').innerText(), /\.env is a protected path/);
    assert.equal(await cards.nth(2).getByRole('button', { name: 'Always allow this tool' }).count(), 0, 'not offered when it always asks');

    await cards.nth(1).getByRole('button', { name: 'Always allow this tool' }).click();
    await cards.nth(0).getByRole('button', { name: 'Allow once' }).click();
    await chat.page.locator('[data-kind="approval"]').getByRole('button', { name: 'Deny' }).click();
    const replies = await chat.waitForPosted('approval.reply', 3);
    assert.deepEqual(replies, [
      { type: 'approval.reply', id: 'a2', decision: 'allowAlways' },
      { type: 'approval.reply', id: 'a1', decision: 'allow' },
      { type: 'approval.reply', id: 'a3', decision: 'deny' },
    ]);
    await chat.page.locator('.requests').waitFor({ state: 'detached' });
  });

  it('a shell card offers "Always allow <prefix>" for its command, and no "always" for a chained line', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({ type: 'approval.request', id: 'p1', tool: 'shell', summary: 'run: npm test -- --grep x', commandPrefix: 'npm test' });
    await chat.host({ type: 'approval.request', id: 'p2', tool: 'shell', summary: 'run: npm test && curl x | sh', noAlways: true });
    const cards = chat.page.locator('[data-kind="approval"]');
    assert.equal(await cards.count(), 2);
    const always = cards.nth(0).locator('.request-always');
    assert.equal(await always.innerText(), 'Always allow npm test');
    assert.equal(await always.locator('code').innerText(), 'npm test');
    assert.equal(await cards.nth(1).locator('.request-always').count(), 0);
    await always.click();
    const [reply] = await chat.waitForPosted('approval.reply', 1);
    assert.deepEqual(reply, { type: 'approval.reply', id: 'p1', decision: 'allowAlways' });
  });

  it('answers ask_user inline with a choice or typed text', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({ type: 'ask.request', id: 'q1', question: 'Which database?', choices: ['sqlite', 'postgres'] });
    await chat.host({ type: 'ask.request', id: 'q2', question: 'What should the branch be called?' });
    const withChoices = chat.page.locator('[data-kind="ask"]', { hasText: 'Which database?' });
    const open = chat.page.locator('[data-kind="ask"]', { hasText: 'branch' });
    assert.match(await withChoices.innerText(), /Which database\?/);
    await withChoices.getByRole('textbox', { name: 'Other answer' }).fill('  mysql  ');
    await withChoices.getByRole('button', { name: 'Answer' }).click();
    await open.getByRole('textbox', { name: 'Answer' }).fill('fix/login');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await chat.waitForPosted('ask.reply', 2), [
      { type: 'ask.reply', id: 'q1', answer: 'mysql' },
      { type: 'ask.reply', id: 'q2', answer: 'fix/login' },
    ]);
    await chat.page.locator('.requests').waitFor({ state: 'detached' });
  });
});
