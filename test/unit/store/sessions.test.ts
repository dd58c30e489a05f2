import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadStoredSession } from '../../../extension/core/agent/stored-session';
import { loadSqlJs } from '../../../extension/core/store';
import { fakeClock, newSession, open, tempDir } from './helpers';

describe('store: sessions', () => {
  let file: string;
  beforeEach(() => {
    file = path.join(tempDir(), 'state.db');
  });

  it('creates, reads, updates and deletes a session', async () => {
    const db = await open(file);
    const s = db.createSession({ ...newSession, id: 'abc' });
    assert.equal(s.id, 'abc');
    assert.equal(s.parentId, null);
    assert.deepEqual(s.loadedTools, []);
    assert.equal(s.created, s.updated);
    assert.deepEqual(db.getSession('abc'), s);

    const u = db.updateSession('abc', { title: 'Renamed', mode: 'plan', role: 'reviewer' });
    assert.equal(u.title, 'Renamed');
    assert.equal(u.mode, 'plan');
    assert.equal(u.role, 'reviewer');
    assert.equal(u.workspaceRoot, '/work/app');
    assert.ok(u.updated > s.updated);

    assert.equal(db.deleteSession('abc'), true);
    assert.equal(db.getSession('abc'), null);
    assert.equal(db.deleteSession('abc'), false);
    await db.close();
  });

  it('generates distinct ids and refuses a duplicate or an unknown session', async () => {
    const db = await open(file);
    const a = db.createSession(newSession);
    const b = db.createSession(newSession);
    assert.notEqual(a.id, b.id);
    assert.throws(() => db.createSession({ ...newSession, id: a.id }), /already exists/);
    assert.throws(() => db.updateSession('nope', { title: 'x' }), /no session nope/);
    assert.throws(() => db.appendMessage('nope', { turn: 1, round: 0, message: { role: 'user', content: 'x' } }), /no session nope/);
    assert.throws(() => db.createSession({ ...newSession, parentId: 'nope' }), /no session nope/);
    await db.close();
  });

  it('lists sessions most recently active first, with their round counts', async () => {
    const db = await open(file, { now: fakeClock() });
    const a = db.createSession({ ...newSession, title: 'A' });
    const b = db.createSession({ ...newSession, title: 'B' });
    const c = db.createSession({ ...newSession, title: 'C' });
    assert.deepEqual(db.listSessions().map((s) => s.title), ['C', 'B', 'A']);

    // Two rounds in turn 1 of A (one with two tool results), one round in turn 2.
    const add = (turn: number, round: number, role: 'user' | 'assistant' | 'tool') =>
      db.appendMessage(a.id, {
        turn,
        round,
        message:
          role === 'tool'
            ? { role, toolCallId: `c${round}`, toolName: 'grep', ok: true, content: 'hit' }
            : role === 'assistant'
              ? { role, content: `r${round}` }
              : { role, content: 'go' },
      });
    add(1, 0, 'user');
    add(1, 1, 'assistant');
    add(1, 1, 'tool');
    add(1, 1, 'tool');
    add(1, 2, 'assistant');
    add(2, 0, 'user');
    add(2, 3, 'assistant');
    db.appendMessage(b.id, { turn: 1, round: 0, message: { role: 'user', content: 'only asked' } });

    const list = db.listSessions();
    assert.deepEqual(
      list.map((s) => [s.title, s.rounds]),
      [
        ['B', 0],
        ['A', 3],
        ['C', 0],
      ],
    );
    assert.deepEqual(Object.keys(list[0]).sort(), ['created', 'id', 'rounds', 'title', 'updated']);
    assert.equal(list[2].id, c.id);
    await db.close();
  });

  it('keeps loaded tools, in load order, across a reopen', async () => {
    let db = await open(file);
    const s = db.createSession({ ...newSession, loadedTools: ['git_status'] });
    db.updateSession(s.id, { loadedTools: ['git_status', 'browser_navigate', 'mcp:github/search'] });
    await db.close();
    db = await open(file);
    assert.deepEqual(db.getSession(s.id)!.loadedTools, ['git_status', 'browser_navigate', 'mcp:github/search']);
    await db.close();
  });

  it('reads a stored mode it does not know (a newer version\'s, or a damaged row) as code, and a resumed session runs in code mode', async () => {
    let db = await open(file);
    const s = db.createSession({ ...newSession, mode: 'plan' });
    await db.flush();
    await db.close();
    const SQL = await loadSqlJs();
    const saved = new SQL.Database(fs.readFileSync(file));
    saved.run(`UPDATE sessions SET mode = 'review' WHERE id = ?`, [s.id]);
    fs.writeFileSync(file, saved.export());
    saved.close();

    db = await open(file);
    assert.equal(db.getSession(s.id)!.mode, 'code');
    assert.equal(db.listSessions().length, 1);
    assert.equal(loadStoredSession(db, s.id)!.mode, 'code');
    db.updateSession(s.id, { mode: 'ask' });
    assert.equal(db.getSession(s.id)!.mode, 'ask', 'a known mode reads as stored');
    await db.close();
  });

  it('lists children of a session, hides them from the top-level list, and deletes them with it', async () => {
    const db = await open(file);
    const parent = db.createSession(newSession);
    const child = db.createSession({ ...newSession, parentId: parent.id, title: 'explore', role: 'explore' });
    const grandchild = db.createSession({ ...newSession, parentId: child.id, title: 'deeper' });
    db.appendMessage(child.id, { turn: 1, round: 0, message: { role: 'user', content: 'look around' } });
    db.recordUsage(child.id, 1, { promptTokens: 10, completionTokens: 2, cachedTokens: 0 });

    assert.deepEqual(db.childSessions(parent.id).map((s) => s.id), [child.id]);
    assert.equal(db.getSession(child.id)!.parentId, parent.id);
    assert.deepEqual(db.listSessions().map((s) => s.id), [parent.id]);
    assert.equal(db.listSessions({ includeChildren: true }).length, 3);

    db.deleteSession(parent.id);
    assert.equal(db.getSession(child.id), null);
    assert.equal(db.getSession(grandchild.id), null);
    assert.deepEqual(db.getMessages(child.id), []);
    assert.deepEqual(db.getUsage(child.id), []);
    await db.close();
  });

  it('refuses writes after close', async () => {
    const db = await open(file);
    await db.close();
    assert.throws(() => db.createSession(newSession), /closed/);
    assert.throws(() => db.commitRound(), /closed/);
  });
});
