import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { journalPath, StateDbBusyError } from '../../../extension/core/store';
import { processStart } from '../../../extension/core/store/lock-record';
import { newSession, open, tempDir } from './helpers';

const record = (pid: number, start: string | null) => JSON.stringify({ pid, start, host: os.hostname(), token: `t${pid}` }) + '\n';

describe('store: stale locks and readers during a run (P10)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'state.db');
  });

  it('P10: a lock whose pid now belongs to another process (pid 1, other start time) is stale and taken over', async () => {
    const start = processStart(1);
    assert.ok(start, 'this test needs /proc');
    fs.writeFileSync(`${file}.lock`, record(1, String(Number(start) + 12345)));
    const db = await open(file);
    assert.equal(JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8')).pid, process.pid);
    await db.close();
    assert.equal(fs.existsSync(`${file}.lock`), false);
  });

  it('P10: a live holder is refused with a message naming the lock file and the safe fix', async () => {
    fs.writeFileSync(`${file}.lock`, record(1, processStart(1)));
    await assert.rejects(open(file), (e: unknown) => {
      assert.ok(e instanceof StateDbBusyError);
      assert.equal(e.pid, 1);
      assert.ok(e.message.includes(`lock file ${file}.lock`), e.message);
      assert.match(e.message, /If no Snowpea is running \(after a crash or a restart\), delete .*state\.db\.lock and try again/);
      return true;
    });
    assert.equal(fs.readFileSync(`${file}.lock`, 'utf8'), record(1, processStart(1)), 'the holder’s lock is left alone');
  });

  it('P10: a young empty lock (being written) counts as held', async () => {
    fs.writeFileSync(`${file}.lock`, '');
    await assert.rejects(open(file), (e: unknown) => e instanceof StateDbBusyError && e.pid === null);
  });

  it('P10: a read-only open works while a writer holds the lock, sees its committed rounds, and writes nothing', async () => {
    const writer = await open(file);
    const s = writer.createSession(newSession);
    await writer.flush();
    writer.appendMessage(s.id, { turn: 1, round: 0, message: { role: 'user', content: 'only in the journal' } });
    await writer.commitRound();
    const listing = () => fs.readdirSync(dir).sort().map((n) => [n, fs.statSync(path.join(dir, n)).isFile() ? fs.readFileSync(path.join(dir, n)).toString('base64') : 'dir']);
    const before = listing();
    await assert.rejects(open(file), StateDbBusyError);
    const reader = await open(file, { readOnly: true });
    assert.equal(reader.readOnly, true);
    assert.deepEqual(reader.getMessages(s.id), [{ role: 'user', content: 'only in the journal' }]);
    assert.throws(() => reader.createSession(newSession), /opened read-only/);
    await reader.close();
    assert.deepEqual(listing(), before, 'the reader changed no file');
    assert.ok(fs.statSync(journalPath(file)).size > 0);
    await writer.close();
  });

  it('P10: a read-only open of a missing database shows no sessions and creates nothing', async () => {
    const reader = await open(path.join(dir, 'sub', 'state.db'), { readOnly: true });
    assert.deepEqual(reader.listSessions(), []);
    await reader.close();
    assert.deepEqual(fs.readdirSync(dir), []);
  });
});
