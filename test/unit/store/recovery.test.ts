import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalPath, StateDbBusyError } from '../../../extension/core/store';
import { newSession, open, tempDir } from './helpers';

const say = (text: string) => ({ role: 'user' as const, content: text });

describe('store: recovery', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'state.db');
  });

  const asideFiles = (base: string) => fs.readdirSync(dir).filter((n) => n.startsWith(`${base}.corrupt-`));

  it('moves a corrupt state.db aside, starts a fresh one and says where the old one went', async () => {
    const garbage = Buffer.from('this is not an SQLite database\n'.repeat(500));
    fs.writeFileSync(file, garbage);
    fs.writeFileSync(journalPath(file), ''); // Snowpea made it: its journal is beside it
    const db = await open(file);
    const [moved] = asideFiles('state.db');
    assert.ok(moved, 'the damaged file is kept beside the new one');
    assert.deepEqual(fs.readFileSync(path.join(dir, moved)), garbage);
    assert.ok(db.notice?.includes(path.join(dir, moved)), db.notice ?? 'no notice');
    assert.match(db.notice!, /could not read its session database/);
    assert.deepEqual(db.listSessions(), []);
    db.createSession(newSession);
    await db.close();
    const again = await open(file);
    assert.equal(again.notice, null);
    assert.equal(again.listSessions().length, 1);
    await again.close();
  });

  it('moves aside a database cut short, together with its journal', async () => {
    let db = await open(file);
    for (let i = 0; i < 40; i++) db.createSession({ ...newSession, title: `s${i} ${'x'.repeat(3000)}` });
    const s = db.createSession(newSession);
    db.appendMessage(s.id, { turn: 1, round: 1, message: { role: 'tool', toolCallId: 'c', toolName: 'shell', ok: true, content: 'big\n'.repeat(5000) } });
    await db.close();
    const whole = fs.readFileSync(file);
    fs.writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    fs.writeFileSync(journalPath(file), '');
    db = await open(file);
    assert.equal(asideFiles('state.db').length, 1);
    assert.equal(asideFiles('state.db.journal').length, 1);
    const [content] = asideFiles('state.db.content');
    assert.equal(fs.readdirSync(path.join(dir, content)).length, 1, 'the content files go aside with their database');
    assert.match(db.notice!, /and .*state\.db\.journal\.corrupt-.* and .*state\.db\.content\.corrupt-/);
    assert.deepEqual(db.listSessions(), []);
    await db.close();
  });

  it('refuses a folder at the path of state.db and leaves it as it was', async () => {
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'keep.txt'), 'mine');
    await assert.rejects(open(file), /state\.db is not a Snowpea session database \(it is a folder\); refusing to touch it/);
    assert.deepEqual(fs.readdirSync(dir), ['state.db']);
    assert.deepEqual(fs.readdirSync(file), ['keep.txt']);
  });

  it('drops a torn last journal line silently and keeps every whole line', async () => {
    const db = await open(file);
    const s = db.createSession(newSession);
    db.appendMessage(s.id, { turn: 1, round: 0, message: say('first') });
    await db.commitRound();
    fs.appendFileSync(journalPath(file), '{"q":99,"o":"message.append","a":{"sessionId":"'); // a kill mid-write
    const again = await open(file, { lock: false });
    assert.equal(again.notice, null);
    assert.deepEqual(again.getMessages(s.id), [say('first')]);
    // The torn tail was cut, so new lines follow whole ones.
    again.appendMessage(s.id, { turn: 1, round: 1, message: say('second') });
    await again.commitRound();
    const third = await open(file, { lock: false });
    assert.deepEqual(third.getMessages(s.id), [say('first'), say('second')]);
    assert.equal(third.notice, null);
  });

  it('moves a journal damaged in the middle aside, keeps what came before and says so', async () => {
    const db = await open(file);
    const s = db.createSession(newSession);
    for (const t of ['one', 'two', 'three']) {
      db.appendMessage(s.id, { turn: 1, round: 0, message: say(t) });
      await db.commitRound();
    }
    const lines = fs.readFileSync(journalPath(file), 'utf8').split('\n');
    const bad = lines.findIndex((l) => l.includes('"two"'));
    lines[bad] = 'garbage that is not JSON';
    fs.writeFileSync(journalPath(file), lines.join('\n'));
    const again = await open(file, { lock: false });
    assert.deepEqual(again.getMessages(s.id), [say('one')]);
    const [moved] = asideFiles('state.db.journal');
    assert.ok(moved);
    assert.ok(again.notice?.includes(path.join(dir, moved)));
    assert.match(again.notice!, /journal was damaged \(line \d+: not JSON\)/);
    // The recovered state was saved at once; the next open is clean.
    const third = await open(file, { lock: false });
    assert.deepEqual(third.getMessages(s.id), [say('one')]);
    assert.equal(third.notice, null);
  });

  it('skips journal lines a snapshot already holds (a crash between save and journal trim)', async () => {
    const db = await open(file);
    const s = db.createSession(newSession);
    db.appendMessage(s.id, { turn: 1, round: 0, message: say('once') });
    db.recordUsage(s.id, 1, { promptTokens: 5, completionTokens: 1, cachedTokens: 0 });
    await db.commitRound();
    const before = fs.readFileSync(journalPath(file));
    await db.flush();
    assert.equal(db.journalBytes, 0);
    assert.equal(fs.statSync(journalPath(file)).size, 0);
    fs.writeFileSync(journalPath(file), before);
    const again = await open(file, { lock: false });
    assert.deepEqual(again.getMessages(s.id), [say('once')]);
    assert.equal(again.getUsage(s.id).length, 1);
    assert.equal(again.listSessions().length, 1);
  });

  it('lets one store at a time use a file, and takes over a lock left by a dead process', async () => {
    const db = await open(file);
    await assert.rejects(open(file), (e: unknown) => e instanceof StateDbBusyError && e.pid === process.pid);
    await db.close();
    const again = await open(file);
    await again.close();
    fs.writeFileSync(`${file}.lock`, '2147483646'); // no such process
    const third = await open(file);
    await third.close();
    assert.equal(fs.existsSync(`${file}.lock`), false);
  });
});
