/**
 * The store's write path keeps a few things at hand instead of asking SQLite at every write:
 * prepared statements, the sessions known to exist, each session's next message position, the
 * encoded event JSON shared by the row and the journal line, and large contents until the commit
 * writes their files. These tests check they never disagree with the database.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentEvent } from '../../../extension/core/conversation/events';
import { loadSqlJs } from '../../../extension/core/store';
import { journalLine, parseJournal } from '../../../extension/core/store/journal';
import { configure, migrate } from '../../../extension/core/store/schema';
import { rowsCached, runCached } from '../../../extension/core/store/statements';
import { newSession, open, tempDir } from './helpers';

const user = (content: string) => ({ role: 'user' as const, content });

describe('store: write path caches', () => {
  let file: string;
  beforeEach(() => {
    file = path.join(tempDir(), 'state.db');
  });

  it('a deleted session (and its children) refuses writes; re-created under the same id it starts again at position 1', async () => {
    const db = await open(file);
    const parent = db.createSession({ ...newSession, id: 'p' });
    db.createSession({ ...newSession, id: 'c', parentId: parent.id });
    assert.deepEqual([1, 2].map((i) => db.appendMessage('p', { turn: 1, round: 0, message: user(`m${i}`) })), [1, 2]);
    assert.equal(db.appendMessage('c', { turn: 1, round: 0, message: user('child') }), 1);
    db.recordUsage('c', 1, { promptTokens: 1, completionTokens: 1, cachedTokens: 0 });

    assert.equal(db.deleteSession('p'), true);
    for (const id of ['p', 'c']) {
      assert.throws(() => db.appendMessage(id, { turn: 1, round: 0, message: user('x') }), new RegExp(`no session ${id}`));
      assert.throws(() => db.recordUsage(id, 1, { promptTokens: 1, completionTokens: 1, cachedTokens: 0 }), /no session/);
      assert.throws(() => db.recordEvent(id, { type: 'round.start', sessionId: id, round: 1 } as AgentEvent), /no session/);
    }

    db.createSession({ ...newSession, id: 'p' });
    assert.equal(db.appendMessage('p', { turn: 1, round: 0, message: user('again') }), 1);
    assert.deepEqual(db.getMessages('p'), [user('again')]);
    await db.close();
  });

  it('continues message positions of a session stored before the store was opened', async () => {
    let db = await open(file);
    db.createSession({ ...newSession, id: 's' });
    for (let i = 0; i < 3; i++) db.appendMessage('s', { turn: 1, round: i, message: user(`m${i}`) });
    await db.close();
    db = await open(file);
    assert.equal(db.appendMessage('s', { turn: 2, round: 3, message: user('m3') }), 4);
    assert.deepEqual(db.getStoredMessages('s').map((m) => m.seq), [1, 2, 3, 4]);
    await db.close();
  });

  it('an event goes into the journal as the very line journalLine() writes, and comes back whole after a reopen', async () => {
    let db = await open(file);
    db.createSession({ ...newSession, id: 's' });
    const result = 'naïve 日本語 🐢 "q" \\ \u0000 \ud800 end\n'.repeat(3000);
    const event = { type: 'tool.result', sessionId: 's', callId: 'c1', tool: 'shell', ok: true, summary: 'ok', result } as AgentEvent;
    db.recordEvent('s', event);
    await db.commitRound();
    const ops = parseJournal(fs.readFileSync(`${file}.journal`)).ops;
    const op = ops.find((o) => o.o === 'event.record')!;
    const bytes = fs.readFileSync(`${file}.journal`).toString('utf8');
    assert.ok(bytes.includes(journalLine({ q: op.q, o: 'event.record', a: { sessionId: 's', type: 'tool.result', at: (op.a as { at: number }).at, event } })));
    assert.deepEqual(db.getEvents('s').at(-1)!.event, JSON.parse(JSON.stringify(event)));
    await db.close();
    db = await open(file);
    assert.deepEqual(db.getEvents('s').at(-1)!.event, JSON.parse(JSON.stringify(event)));
    await db.close();
  });

  it('a prepared statement survives a failed run and an export, and sees every change', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    configure(db);
    migrate(db);
    const insert = 'INSERT INTO meta (key, value) VALUES (?, ?)';
    runCached(db, insert, ['a', '1']);
    assert.throws(() => runCached(db, insert, ['a', '2']), /UNIQUE/);
    runCached(db, insert, ['b', '2']);
    const read = 'SELECT key, value FROM meta WHERE key IN (?, ?) ORDER BY key';
    assert.deepEqual(rowsCached(db, read, ['a', 'b']), [{ key: 'a', value: '1' }, { key: 'b', value: '2' }]);
    const copy = new SQL.Database(db.export());
    runCached(db, insert, ['c', '3']);
    assert.deepEqual(rowsCached(db, read, ['b', 'c']), [{ key: 'b', value: '2' }, { key: 'c', value: '3' }]);
    assert.deepEqual(copy.exec("SELECT value FROM meta WHERE key = 'b'")[0].values, [['2']]);
    copy.close();
    db.close();
  });

  it('a large content is readable at once, its file is written by the commit, and a failed write is retried by the next one', async () => {
    const db = await open(file);
    db.createSession({ ...newSession, id: 's' });
    const dir = `${file}.content`;
    fs.writeFileSync(dir, 'a file where the folder should be'); // the write fails
    const big = { role: 'tool' as const, toolCallId: 'c', toolName: 'shell', ok: true, content: 'big output ✓\n'.repeat(2000) };
    db.appendMessage('s', { turn: 1, round: 1, message: big });
    assert.deepEqual(db.getMessages('s'), [big], 'answered from memory before any file exists');
    await assert.rejects(db.commitRound());
    assert.deepEqual(db.getMessages('s'), [big]);
    fs.rmSync(dir);
    await db.commitRound();
    assert.equal(fs.readdirSync(dir).length, 1);
    assert.equal(fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]), 'utf8'), big.content);
    await db.close();
    const again = await open(file);
    assert.deepEqual(again.getMessages('s'), [big]);
    await again.close();
  });
});
