import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listSessionsCommand, STOPPED_EARLY } from '../../../extension/cli/session-list';
import { openStateDb } from '../../../extension/core/store';

describe('snowpea sessions list: a session stopped before its first answer (reliability N12)', () => {
  it('is listed with 0 rounds and marked, beside a session with a stored round that is not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-list-'));
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-list-ws-'));
    const store = await openStateDb({ file: path.join(dir, 'state.db'), idleMs: 0 });
    const out: string[] = [];
    const write = process.stdout.write;
    try {
      const done = store.createSession({ title: 'answered', workspaceRoot: ws, mode: 'code', role: 'default' });
      store.appendMessage(done.id, { turn: 1, round: 0, message: { role: 'user', content: 'hi' } });
      store.appendMessage(done.id, { turn: 1, round: 1, message: { role: 'assistant', content: 'hello' } });
      await store.commitRound();
      const killed = store.createSession({ title: 'killed early', workspaceRoot: ws, mode: 'code', role: 'default' });
      process.stdout.write = ((chunk: string) => (out.push(String(chunk)), true)) as typeof process.stdout.write;
      assert.equal(listSessionsCommand(store, ws, {}), 0);
      process.stdout.write = write;
      const lines = out.join('').trim().split('\n');
      const line = (id: string) => lines.find((l) => l.startsWith(id)) ?? '';
      assert.match(line(killed.id), /0 rounds/);
      assert.ok(line(killed.id).endsWith(`killed early  ${STOPPED_EARLY}`), line(killed.id));
      assert.match(line(done.id), /1 round/);
      assert.ok(!line(done.id).includes(STOPPED_EARLY));
    } finally {
      process.stdout.write = write;
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
