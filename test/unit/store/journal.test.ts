import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalLine, parseJournal } from '../../../extension/core/store/journal';
import { JournalWriter } from '../../../extension/core/store/journal-writer';
import { tempDir } from './helpers';

const line = (q: number) => journalLine({ q, o: 'usage.record', a: { sessionId: 's', round: q, prompt: 1, completion: 1, cached: 0, at: q } });

describe('store: journal', () => {
  it('reads whole lines, and treats an unterminated or garbled last line as torn', () => {
    const whole = line(1) + line(2);
    assert.deepEqual(parseJournal(Buffer.from(whole)).ops.map((o) => o.q), [1, 2]);
    for (const tail of [line(3).slice(0, 20), line(3).slice(0, -1), '\0\0\0\0', 'garbage\n', 'garbage\n\0\0\n']) {
      const r = parseJournal(Buffer.from(whole + tail));
      assert.deepEqual(r.ops.map((o) => o.q), [1, 2], JSON.stringify(tail));
      assert.equal(r.torn, true);
      assert.equal(r.validBytes, Buffer.byteLength(whole));
      assert.equal(r.corrupt, undefined);
    }
  });

  it('reports a bad line followed by more lines as corrupt, with its line number', () => {
    const r = parseJournal(Buffer.from(line(1) + '{"q":2,"o":"nope","a":{}}\n' + line(3)));
    assert.deepEqual(r.ops.map((o) => o.q), [1]);
    assert.equal(r.corrupt, 'line 2: not an operation');
    const back = parseJournal(Buffer.from(line(5) + line(4) + line(6)));
    assert.equal(back.corrupt, 'line 2: sequence 4 after 5');
  });

  it('appends in order, batches waiting commits, and resolves each once durable', async () => {
    const file = path.join(tempDir(), 'j');
    const w = new JournalWriter(file);
    const commits = [1, 2, 3, 4].map((q) => w.append([Buffer.from(line(q))]));
    assert.equal(w.size, Buffer.byteLength(line(1) + line(2) + line(3) + line(4)));
    await Promise.all(commits);
    await w.append();
    assert.equal(fs.readFileSync(file, 'utf8'), line(1) + line(2) + line(3) + line(4));
    w.close();
  });

  it('after a failed write keeps every unwritten byte, in order, for the next commit (no gap)', async () => {
    const file = path.join(tempDir(), 'j');
    const w = new JournalWriter(file);
    await w.append([Buffer.from(line(1))]);
    const internals = w as unknown as { fd: number };
    const goodFd = internals.fd;
    internals.fd = fs.openSync(file, 'r'); // writes on this descriptor fail
    await assert.rejects(w.append([Buffer.from(line(2))]));
    fs.closeSync(internals.fd);
    internals.fd = goodFd;
    await w.append([Buffer.from(line(3))]);
    assert.equal(fs.readFileSync(file, 'utf8'), line(1) + line(2) + line(3));
    w.close();
  });

  it('drops the bytes a fold covered and keeps the rest', async () => {
    const file = path.join(tempDir(), 'j');
    const w = new JournalWriter(file);
    await w.append([Buffer.from(line(1) + line(2))]);
    const covered = w.size;
    await w.append([Buffer.from(line(3))]);
    w.dropBefore(covered);
    assert.equal(fs.readFileSync(file, 'utf8'), line(3));
    assert.equal(w.size, Buffer.byteLength(line(3)));
    await w.append([Buffer.from(line(4))]);
    assert.equal(fs.readFileSync(file, 'utf8'), line(3) + line(4));
    w.dropBefore(w.size);
    assert.equal(fs.statSync(file).size, 0);
    w.close();
  });
});
