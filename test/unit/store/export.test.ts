import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Message } from '../../../extension/core/conversation/messages';
import type { StateDb } from '../../../extension/core/store';
import { newSession, open, tempDir } from './helpers';

const BIG = 'Ünïcödé output with ``` fences ```` and\ttabs 🐢\n'.repeat(40_000);

async function seeded(): Promise<{ db: StateDb; id: string; childId: string; messages: Message[] }> {
  const db = await open(path.join(tempDir(), 'state.db'));
  const s = db.createSession({ ...newSession, id: 'sess-1', loadedTools: ['git_status'] });
  const messages: Message[] = [
    { role: 'user', content: 'Why does the parser fail on `a ?? b`?' },
    { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'c1', name: 'shell', arguments: '{"command":"npm test"}', title: 'run: npm test' }, { id: 'c2', name: 'read_file', arguments: 'not json', title: 'read_file' }] },
    { role: 'tool', toolCallId: 'c1', toolName: 'shell', ok: true, content: BIG },
    { role: 'tool', toolCallId: 'c2', toolName: 'read_file', ok: false, content: 'error (invalid_arguments): bad JSON', errorCode: 'invalid_arguments' },
    { role: 'assistant', content: 'The tokenizer does not know `??`. **Fixed.**' },
  ];
  messages.forEach((message, i) => db.appendMessage(s.id, { turn: 1, round: i === 0 ? 0 : i < 4 ? 1 : 2, message }));
  db.recordToolCall(s.id, { callId: 'c1', tool: 'shell', args: '{"command":"npm test"}', ok: true, started: 1, ended: 2 });
  db.recordUsage(s.id, 1, { promptTokens: 900, completionTokens: 40, cachedTokens: 512 });
  db.recordUsage(s.id, 2, { promptTokens: 1900, completionTokens: 60, cachedTokens: 896 });
  db.recordEvent(s.id, { type: 'turn.end', sessionId: s.id, reason: 'done', rounds: 2 });
  const child = db.createSession({ ...newSession, parentId: s.id, title: 'explore tokenizer', role: 'explore' });
  db.appendMessage(child.id, { turn: 1, round: 0, message: { role: 'user', content: 'find the tokenizer' } });
  await db.commitRound();
  return { db, id: s.id, childId: child.id, messages };
}

describe('store: export', () => {
  it('json holds the whole stored transcript, every byte of every tool output', async () => {
    const { db, id, childId, messages } = await seeded();
    const json = JSON.parse(db.exportSession(id, 'json'));
    assert.equal(json.format, 'snowpea.session');
    assert.equal(json.session.id, id);
    assert.deepEqual(json.session.loadedTools, ['git_status']);
    assert.deepEqual(
      json.messages.map((m: { message: Message }) => m.message),
      messages,
    );
    assert.equal(json.messages[2].message.content, BIG);
    assert.deepEqual(json.messages.map((m: { seq: number; round: number }) => [m.seq, m.round]), [
      [1, 0],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, 2],
    ]);
    assert.equal(json.toolCalls[0].callId, 'c1');
    assert.deepEqual(json.usage.map((u: { prompt: number }) => u.prompt), [900, 1900]);
    assert.equal(json.events[0].type, 'turn.end');
    assert.equal(json.children.length, 1);
    assert.equal(json.children[0].session.id, childId);
    assert.equal(json.children[0].messages[0].message.content, 'find the tokenizer');
    await db.close();
  });

  it('md is readable: turns, tool calls with arguments, full results in safe fences, usage', async () => {
    const { db, id, childId } = await seeded();
    const md = db.exportSession(id, 'md');
    assert.match(md, /^# Fix the parser\n/);
    assert.match(md, /- Session: `sess-1`/);
    assert.match(md, /- Loaded tools: git_status/);
    assert.match(md, /- Tokens: 2800 prompt \(1408 cached\), 100 completion over 2 round\(s\)/);
    assert.match(md, /## Turn 1\n\n### User\n\nWhy does the parser fail on `a \?\? b`\?/);
    assert.match(md, /\*\*Tool call\*\* `shell` \(`c1`\): run: npm test\n\n```json\n\{\n {2}"command": "npm test"\n\}\n```/);
    assert.match(md, /\*\*Tool call\*\* `read_file` \(`c2`\)\n\n```json\nnot json\n```/);
    assert.match(md, /\*\*Result\*\* of `read_file` \(`c2`\): error `invalid_arguments`/);
    // The output contains ```` so its fence is five backticks, and the whole output is there.
    assert.ok(md.includes('**Result** of `shell` (`c1`): ok\n\n`````text\n' + BIG + '`````'));
    assert.match(md, /### Assistant\n\nThe tokenizer does not know `\?\?`\. \*\*Fixed\.\*\*/);
    assert.match(md, new RegExp(`## Delegated sessions\\n\\n- \`${childId}\`: explore tokenizer \\(1 messages\\)`));
    await db.close();
  });

  it('refuses an unknown session', async () => {
    const { db } = await seeded();
    assert.throws(() => db.exportSession('nope', 'json'), /no session nope/);
    await db.close();
  });
});
