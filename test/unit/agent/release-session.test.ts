import assert from 'node:assert/strict';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

describe('issue 18: a session the chat left is released from memory', () => {
  let h: Harness;
  afterEach(async () => h && (await h.close()));

  it('releaseSession drops the live session (memory), and opening it again reads the same transcript from state.db', async () => {
    h = await createHarness();
    h.server.enqueue({ text: 'first answer' });
    const s = h.agent.newSession();
    await h.agent.runTurn(s, 'hello', new AbortController().signal);
    assert.equal(h.agent.openSession(s.id), s, 'live: the same object');
    h.agent.releaseSession(s.id);
    const again = h.agent.openSession(s.id);
    assert.ok(again && again !== s, 'released: a fresh object from state.db');
    assert.deepEqual(again.messages, s.messages);
  });
});
