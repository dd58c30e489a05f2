import assert from 'node:assert/strict';
import { useWebviewEnv } from './harness/suite';

describe('webview: state survives hide/show and reloads', function () {
  const env = useWebviewEnv();

  it('saves the chat with setState and restores it in a new page', async () => {
    const first = await env.open();
    await first.init();
    await first.events(
      { type: 'turn.start', turn: 1, prompt: 'hello' },
      { type: 'text.delta', text: 'Hi **there**' },
      { type: 'tool.call', callId: 'c1', tool: 'read_file', args: '{"path":"a.ts"}', title: 'read a.ts', summary: '' },
      { type: 'tool.result', callId: 'c1', tool: 'read_file', ok: true, summary: 'read a.ts' },
      { type: 'turn.end', reason: 'done', rounds: 1 },
    );
    await first.composer.fill('half-written question');
    // Saving is throttled: wait until the saved state has caught up with the draft.
    await first.page.waitForFunction(() => (globalThis as any).__fakeHost.state?.draft === 'half-written question');
    const saved = await first.savedState();
    assert.equal(saved.items.length, 3);

    // The view is hidden and shown again: a new page that gets the saved state back.
    const second = await env.open({ initialState: saved });
    await second.items('assistant').waitFor();
    assert.equal(await second.items('user').innerText(), 'hello');
    assert.equal(await second.items('assistant').locator('strong').innerText(), 'there');
    assert.equal(await second.toolCard('c1').getAttribute('data-status'), 'ok');
    assert.equal(await second.composer.inputValue(), 'half-written question');
  });

  it('replaces the view with the host transcript on reload and follows a running turn', async () => {
    const chat = await env.open();
    await chat.init({ running: true });
    await chat.host({
      type: 'transcript',
      sessionId: 's1',
      entries: [
        { role: 'user', text: 'fix the bug' },
        { role: 'assistant', text: 'Looking at `main.ts`.' },
        { role: 'tool', callId: 'c1', tool: 'read_file', args: '{"path":"main.ts"}', title: 'read main.ts', summary: 'read main.ts', result: '...', ok: true },
        { role: 'tool', callId: 'c2', tool: 'bash', args: '{"command":"npm test"}', title: 'bash', summary: 'npm test' },
      ],
    });
    await chat.toolCard('c2').waitFor();
    assert.equal(await chat.toolCard('c1').getAttribute('data-status'), 'ok');
    assert.equal(await chat.toolCard('c2').getAttribute('data-status'), 'running');
    assert.ok(await chat.stopButton.isVisible());
    await chat.events({ type: 'tool.result', callId: 'c2', tool: 'bash', ok: true, summary: '12 passing' }, { type: 'turn.end', reason: 'done', rounds: 2 });
    await chat.page.locator('.tool-card[data-call-id="c2"][data-status="ok"]').waitFor();
    await chat.sendButton.waitFor();
  });

  it('a new session from init clears the old conversation', async () => {
    const chat = await env.open();
    await chat.init();
    await chat.events({ type: 'text.delta', text: 'old chat' });
    await chat.items('assistant').waitFor();
    await chat.host({ type: 'init', sessionId: 's2', title: 'New chat', model: 'm', loadedTools: [], workspaceTrusted: true, setupNeeded: false });
    await chat.page.locator('[data-kind="welcome"]').waitFor();
    assert.equal(await chat.items('assistant').count(), 0);
  });
});
