import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { AgentEvent } from '../../../extension/core/agent/events';
import type { Message } from '../../../extension/core/agent/messages';
import { newSession, open, tempDir } from './helpers';

/** About 2 MB of tool output mixing ASCII, accents, CJK, emoji, control characters, NUL and a lone surrogate. */
function bigOutput(): string {
  const chunk = 'line ✓ naïve café 日本語 🐢🚀 tab\tcr\r\n "q" \\ \u0000 \u001b[31m red \u001b[0m \ud800 end\n';
  return chunk.repeat(Math.ceil((2 * 1024 * 1024) / chunk.length));
}

function transcript(): Message[] {
  return [
    { role: 'user', content: 'Résume le fichier, s’il te plaît 🙏' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'call_1', name: 'shell', arguments: '{"command":"cat big.log"}' },
        { id: 'call_2', name: 'read_file', arguments: '{"path": broken json' },
      ],
    },
    { role: 'tool', toolCallId: 'call_1', toolName: 'shell', ok: true, content: bigOutput() },
    { role: 'tool', toolCallId: 'call_2', toolName: 'read_file', ok: false, content: 'error (invalid_arguments): ...', errorCode: 'invalid_arguments' },
    {
      role: 'user',
      attachedBy: 'tools',
      content: [
        { type: 'text', text: '1 image(s) attached' },
        { type: 'image', imageId: 'img-1', name: 'shot.png', mime: 'image/png', width: 1280, height: 800 },
      ],
    },
    { role: 'assistant', content: 'Fertig. 完成しました。' },
  ];
}

describe('store: messages', () => {
  let file: string;
  beforeEach(() => {
    file = path.join(tempDir(), 'state.db');
  });

  it('stores messages verbatim and in order, in memory, after a commit and after close', async () => {
    const msgs = transcript();
    let db = await open(file);
    const s = db.createSession(newSession);
    const seqs = msgs.map((message, i) => db.appendMessage(s.id, { turn: 1, round: i === 0 ? 0 : i < 5 ? 1 : 2, message }));
    assert.deepEqual(seqs, [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(db.getMessages(s.id), msgs);
    await db.commitRound();
    await db.close();

    db = await open(file);
    const back = db.getMessages(s.id);
    assert.deepEqual(back, msgs);
    assert.equal(JSON.stringify(back), JSON.stringify(msgs));
    const big = back[2] as Extract<Message, { role: 'tool' }>;
    assert.ok(big.content.length >= 2 * 1024 * 1024);
    assert.equal(big.content, bigOutput());
    assert.deepEqual(
      db.getStoredMessages(s.id).map((m) => [m.seq, m.turn, m.round, m.message.role]),
      [
        [1, 1, 0, 'user'],
        [2, 1, 1, 'assistant'],
        [3, 1, 1, 'tool'],
        [4, 1, 1, 'tool'],
        [5, 1, 1, 'user'],
        [6, 1, 2, 'assistant'],
      ],
    );
    // Appending after a reopen continues the numbering.
    assert.equal(db.appendMessage(s.id, { turn: 2, round: 0, message: { role: 'user', content: 'next' } }), 7);
    await db.close();
  });

  it('replays committed messages from the journal when the process never closed the store', async () => {
    const msgs = transcript();
    const db = await open(file);
    const s = db.createSession(newSession);
    for (const message of msgs) db.appendMessage(s.id, { turn: 1, round: 1, message });
    await db.commitRound();
    assert.ok(db.journalBytes > 2 * 1024 * 1024);
    // No close(): the next opener finds only the snapshot from open time plus the journal.
    const again = await open(file, { lock: false });
    assert.deepEqual(again.getMessages(s.id), msgs);
    await again.close();
  });

  it('records tool calls (start then end), usage and events; skips streaming deltas', async () => {
    let db = await open(file);
    const s = db.createSession(newSession);
    db.recordToolCall(s.id, { callId: 'c1', tool: 'shell', args: '{"command":"ls"}', ok: null, turn: 1, round: 1, started: 100 });
    assert.equal(db.getToolCalls(s.id)[0].ok, null);
    db.recordToolCall(s.id, { callId: 'c1', tool: 'shell', args: '{"command":"ls"}', ok: false, errorCode: 'timeout', turn: 1, round: 1, started: 100, ended: 250 });
    db.recordToolCall(s.id, { callId: 'c2', tool: 'grep', args: '{}', ok: true, started: 300, ended: 310 });
    db.recordUsage(s.id, 1, { promptTokens: 1200, completionTokens: 80, cachedTokens: 1024 });
    db.recordUsage(s.id, 2, { promptTokens: 1400, completionTokens: 20, cachedTokens: 1200 });
    const events: AgentEvent[] = [
      { type: 'turn.start', sessionId: s.id, turn: 1, prompt: 'hi' },
      { type: 'text.delta', sessionId: s.id, text: 'H' },
      { type: 'tool.output', sessionId: s.id, callId: 'c1', chunk: 'partial' },
      { type: 'loop.suspected', sessionId: s.id, tool: 'grep', count: 5 },
      { type: 'turn.end', sessionId: s.id, reason: 'done', rounds: 2 },
    ];
    for (const e of events) db.recordEvent(s.id, e);
    await db.commitRound();
    await db.close();

    db = await open(file);
    assert.deepEqual(db.getToolCalls(s.id), [
      { callId: 'c1', tool: 'shell', args: '{"command":"ls"}', ok: false, errorCode: 'timeout', turn: 1, round: 1, started: 100, ended: 250 },
      { callId: 'c2', tool: 'grep', args: '{}', ok: true, errorCode: null, turn: null, round: null, started: 300, ended: 310 },
    ]);
    assert.deepEqual(
      db.getUsage(s.id).map(({ round, prompt, completion, cached }) => ({ round, prompt, completion, cached })),
      [
        { round: 1, prompt: 1200, completion: 80, cached: 1024 },
        { round: 2, prompt: 1400, completion: 20, cached: 1200 },
      ],
    );
    assert.deepEqual(
      db.getEvents(s.id).map((e) => e.event),
      [events[0], events[3], events[4]],
    );
    assert.deepEqual(db.getEvents(s.id).map((e) => e.type), ['turn.start', 'loop.suspected', 'turn.end']);
    await db.close();
  });

  it('rejects something that is not a message', async () => {
    const db = await open(file);
    const s = db.createSession(newSession);
    assert.throws(() => db.appendMessage(s.id, { turn: 1, round: 0, message: { role: 'system', content: 'x' } as unknown as Message }), /user, assistant or tool/);
    assert.deepEqual(db.getMessages(s.id), []);
    await db.close();
  });
});
