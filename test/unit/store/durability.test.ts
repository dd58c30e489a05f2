import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { journalPath, loadSqlJs, openStateDb } from '../../../extension/core/store';
import { roundMessages, WRITER_SESSION } from '../../fixtures/store-rounds';
import { newSession, open, tempDir } from './helpers';
import { eventually } from '../../fixtures/eventually';

const root = path.resolve(__dirname, '../../..');

/** Runs the writer until it has committed `k` rounds and is writing round k+1, then SIGKILLs it. */
async function killWriterAfter(file: string, k: number, fold = false): Promise<string[]> {
  const args = ['--import', 'tsx', 'test/fixtures/store-writer.ts', file, String(k), ...(fold ? ['fold'] : [])];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<NodeJS.Signals | null>((res) => child.on('exit', (_code, signal) => res(signal)));
  const lines: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line === 'ready') resolve();
    });
    child.on('exit', () => reject(new Error(`writer exited before ready: ${stderr}`)));
  });
  await ready;
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
  return lines;
}

async function assertRoundsIntact(file: string, k: number): Promise<void> {
  const db = await openStateDb({ file, idleMs: 0 });
  try {
    const stored = db.getStoredMessages(WRITER_SESSION);
    const expected = [{ role: 'user', content: 'go' }, ...Array.from({ length: k }, (_, i) => roundMessages(i + 1)).flat()];
    assert.equal(stored.length, expected.length, `messages after the kill: ${stored.length}, committed: ${expected.length}`);
    assert.deepEqual(
      stored.map((m) => m.message),
      expected,
    );
    assert.ok(stored.every((m) => m.round <= k), 'nothing of the round in flight');
    assert.deepEqual(
      db.getUsage(WRITER_SESSION).map((u) => u.round),
      Array.from({ length: k }, (_, i) => i + 1),
    );
    assert.equal(db.notice, null);
  } finally {
    await db.close();
  }
}

describe('store: durability', () => {
  it('SIGKILL mid-round loses only the round in flight; every committed round is intact', async () => {
    const file = path.join(tempDir(), 'state.db');
    const lines = await killWriterAfter(file, 6);
    assert.deepEqual(lines, ['committed 1', 'committed 2', 'committed 3', 'committed 4', 'committed 5', 'committed 6', 'ready']);
    await assertRoundsIntact(file, 6);
  });

  it('the same holds while folds keep rewriting state.db and trimming the journal', async () => {
    const file = path.join(tempDir(), 'state.db');
    await killWriterAfter(file, 10, true);
    const SQL = await loadSqlJs();
    const snapshot = new SQL.Database(fs.readFileSync(file));
    const folded = Number(snapshot.exec(`SELECT COUNT(*) FROM messages`)[0].values[0][0]);
    snapshot.close();
    assert.ok(folded > 0, 'the writer folded rounds into state.db before the kill');
    await assertRoundsIntact(file, 10);
  });

  it('commits trailing writes when idle, never half a round, and folds by itself once the journal is big', async () => {
    const file = path.join(tempDir(), 'state.db');
    const db = await open(file, { idleMs: 20, foldJournalBytes: 1 });
    const journalText = () => fs.readFileSync(journalPath(file), 'utf8');
    const until = (cond: () => boolean) => eventually(cond, 20_000, 20);
    const s = db.createSession(newSession);
    db.appendMessage(s.id, { turn: 1, round: 0, message: { role: 'user', content: 'in flight' } });
    // The idle timer finds the store quiet and leaves the uncommitted round alone (it re-arms only on the next write).
    const checks = db.idleChecks;
    await until(() => db.idleChecks > checks);
    assert.ok(!journalText().includes('in flight'), 'an uncommitted round stays out of the journal');
    await db.commitRound();
    assert.ok(journalText().includes('in flight'));

    db.recordEvent(s.id, { type: 'turn.end', sessionId: s.id, reason: 'done', rounds: 0 });
    await until(() => journalText().includes('turn.end'));
    assert.ok(journalText().includes('turn.end'), 'the trailing event was committed without commitRound()');

    // A journal past a quarter of state.db gets folded into it.
    for (let i = 0; i < 40; i++) db.appendMessage(s.id, { turn: 2, round: 1, message: { role: 'tool', toolCallId: `c${i}`, toolName: 'grep', ok: true, content: 'y'.repeat(2000) } });
    await db.commitRound();
    await until(() => db.journalBytes === 0);
    assert.equal(db.journalBytes, 0);
    const SQL = await loadSqlJs();
    const d = new SQL.Database(fs.readFileSync(file));
    assert.equal(Number(d.exec(`SELECT COUNT(*) FROM events`)[0].values[0][0]), 1);
    assert.equal(Number(d.exec(`SELECT COUNT(*) FROM messages`)[0].values[0][0]), 41);
    d.close();
    await db.close();
  });
});
