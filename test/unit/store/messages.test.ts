import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentEvent } from '../../../extension/core/conversation/events';
import type { Message } from '../../../extension/core/conversation/messages';
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
    // A large, well-formed content goes to a content file; one with a lone surrogate (no exact
    // UTF-8 form) stays in the row and the journal, JSON-escaped.
    const fileContent = 'MARKER-IN-FILE ✓ 🐢\n'.repeat(100_000);
    const msgs: Message[] = [...transcript(), { role: 'tool', toolCallId: 'c9', toolName: 'shell', ok: true, content: fileContent }];
    const db = await open(file);
    const s = db.createSession(newSession);
    for (const message of msgs) db.appendMessage(s.id, { turn: 1, round: 1, message });
    await db.commitRound();
    const journal = fs.readFileSync(`${file}.journal`, 'utf8');
    assert.ok(!journal.includes('MARKER-IN-FILE'));
    assert.ok(journal.includes('\\ud800'));
    const [stored] = fs.readdirSync(`${file}.content`);
    assert.equal(fs.readFileSync(path.join(`${file}.content`, stored), 'utf8'), fileContent);
    // No close(): the next opener finds only the snapshot from open time plus the journal.
    const again = await open(file, { lock: false });
    assert.deepEqual(again.getMessages(s.id), msgs);
    assert.equal(JSON.stringify(again.getMessages(s.id)), JSON.stringify(msgs));
    await again.close();
  });

  it('shows a marker for a content file gone missing, and removes files no message refers to', async () => {
    let db = await open(file);
    const s = db.createSession(newSession);
    const content = 'lost output ✓\n'.repeat(2000);
    db.appendMessage(s.id, { turn: 1, round: 1, message: { role: 'tool', toolCallId: 'c1', toolName: 'shell', ok: true, content } });
    await db.close();
    const dir = `${file}.content`;
    const [name] = fs.readdirSync(dir);
    fs.writeFileSync(path.join(dir, 'orphan'), 'from a round never committed');
    fs.rmSync(path.join(dir, name));
    db = await open(file);
    assert.deepEqual(fs.readdirSync(dir), []);
    const [m] = db.getMessages(s.id) as Array<Extract<Message, { role: 'tool' }>>;
    assert.equal(m.toolCallId, 'c1');
    assert.match(m.content, /^\[state\.db: this content \(\d+ bytes\) is missing: .*\]$/);
    await db.close();
  });

  it('stores identical large contents once and removes the file after the last session using it is deleted', async () => {
    const content = 'same big output ✓\n'.repeat(1000);
    let db = await open(file);
    const a = db.createSession(newSession);
    const b = db.createSession(newSession);
    for (const id of [a.id, b.id]) db.appendMessage(id, { turn: 1, round: 1, message: { role: 'tool', toolCallId: 'c', toolName: 'grep', ok: true, content } });
    await db.commitRound();
    const dir = `${file}.content`;
    assert.equal(fs.readdirSync(dir).length, 1);
    db.deleteSession(a.id);
    await db.close();
    db = await open(file);
    assert.equal(fs.readdirSync(dir).length, 1, 'still used by the other session');
    assert.equal((db.getMessages(b.id)[0] as { content: string }).content, content);
    db.deleteSession(b.id);
    await db.close();
    db = await open(file);
    assert.deepEqual(fs.readdirSync(dir), []);
    await db.close();
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
