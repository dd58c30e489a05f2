import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalPath } from '../../../extension/core/store';
import { writeFaults } from '../../../extension/core/store/files';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { newSession, open, tempDir } from './helpers';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** Every leftover temporary beside the database or in its content folder. */
function temps(dbFile: string): string[] {
  const dir = path.dirname(dbFile);
  const content = `${dbFile}.content`;
  const names = [...fs.readdirSync(dir), ...(fs.existsSync(content) ? fs.readdirSync(content) : [])];
  return names.filter((n) => /\.tmp(-|$)/.test(n));
}

/**
 * Node reports an unhandled rejection once the microtasks of the tick it happened in have run; the store's
 * operations are all awaited above, so one turn of the event loop later every rejection they made is reported.
 */
const rejectionsReported = () => new Promise<void>((r) => setImmediate(r));

describe('store: a full disk and moved-aside journals (P8, P13)', () => {
  let h: Harness | null = null;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    writeFaults.before = null;
    process.off('unhandledRejection', onUnhandled);
    await h?.close().catch(() => {});
    h = null;
  });

  it('P8: ENOSPC during a turn ends it with one clear sentence; earlier rounds stay, no temp files, no unhandled rejection', async () => {
    h = await createHarness();
    const big = 'x'.repeat(60_000);
    h.server.setResponder((_body, i) => {
      if (i === 0) return { toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'a.txt', content: 'round one\n' }) }] };
      // Round 1 is committed before this request is sent; from here on the disk is full.
      writeFaults.before = () => {
        throw enospc();
      };
      if (i === 1) return { toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'b.txt', content: big }) }] };
      return { text: 'done' };
    });
    const session = h.agent.newSession();
    await assert.rejects(h.agent.runTurn(session, 'write two files', new AbortController().signal), (e: Error) => {
      assert.equal(e.message, `could not save the session to ${h!.dbFile}: the disk is full (ENOSPC)`);
      return true;
    });
    const store = h.store;
    await store.close(); // the final save fails too: said once (by the turn), not thrown again
    await rejectionsReported();
    assert.deepEqual(unhandled, []);
    assert.deepEqual(temps(h.dbFile), []);
    writeFaults.before = null;
    const again = await open(h.dbFile, { lock: false });
    const messages = again.getMessages(session.id);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool'], 'round 1 is kept');
    await again.close();
  });

  it('P8: a journal write refused while flush() saves the database is no unhandled rejection', async () => {
    const file = path.join(tempDir(), 'state.db');
    const db = await open(file);
    const s = db.createSession(newSession);
    await db.commitRound();
    writeFaults.before = (f) => {
      if (f.endsWith('.journal')) throw enospc();
    };
    db.appendMessage(s.id, { turn: 1, round: 1, message: { role: 'user', content: 'saved by the fold' } });
    await db.flush(); // the journal append fails at once; the snapshot write takes longer and succeeds
    await rejectionsReported();
    assert.deepEqual(unhandled, []);
    writeFaults.before = null;
    await db.close();
    const again = await open(file);
    assert.deepEqual(again.getMessages(s.id), [{ role: 'user', content: 'saved by the fold' }]);
    await again.close();
  });

  it('P13: content files a moved-aside journal refers to survive the next opens', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'state.db');
    const db = await open(file);
    const s = db.createSession(newSession);
    db.appendMessage(s.id, { turn: 1, round: 1, message: { role: 'tool', toolCallId: 'c1', toolName: 'read_file', ok: true, content: 'line\n'.repeat(7000) } });
    await db.commitRound(); // then the process is killed: the round is only in the journal
    const contentDir = `${file}.content`;
    const [content] = fs.readdirSync(contentDir);
    const lines = fs.readFileSync(journalPath(file), 'utf8').split('\n');
    lines[0] = 'damaged';
    fs.writeFileSync(journalPath(file), lines.join('\n'));
    const first = await open(file, { lock: false });
    assert.match(first.notice ?? '', /journal was damaged/);
    await first.close();
    const second = await open(file, { lock: false });
    assert.equal(second.notice, null);
    await second.close();
    const third = await open(file, { lock: false });
    await third.close();
    assert.deepEqual(fs.readdirSync(contentDir), [content], 'the content the kept journal refers to is still there');
    const [aside] = fs.readdirSync(dir).filter((n) => n.startsWith('state.db.journal.corrupt-'));
    assert.ok(fs.readFileSync(path.join(dir, aside), 'utf8').includes(content));
  });
});
