import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tempDir } from './helpers';

const RACERS = 6;
const TRIALS = 30;
const racerScript = path.resolve(__dirname, '../../fixtures/store-lock-racer.ts');

type Reply = { trial: number; won?: boolean; error?: string };

/** Holders at once, from the enter/leave lines in the order they were appended. */
function maxHolders(lines: string[]): number {
  let now = 0;
  let max = 0;
  for (const l of lines) {
    now += l.startsWith('enter ') ? 1 : -1;
    max = Math.max(max, now);
  }
  return max;
}

describe('store: lock race between processes (P4)', function () {
  this.timeout(180_000);
  let racers: ChildProcess[] = [];
  let dir: string;

  before(async () => {
    racers = Array.from({ length: RACERS }, () => fork(racerScript, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
    await Promise.all(racers.map((r) => new Promise((res) => r.once('message', res))));
  });
  after(() => racers.forEach((r) => r.kill()));
  beforeEach(() => (dir = tempDir()));

  async function trial(n: number, file: string, log: string): Promise<Reply[]> {
    const startAt = Date.now() + 120;
    const replies = racers.map(
      (r) =>
        new Promise<Reply>((res) => {
          const on = (m: Reply) => {
            if (m.trial !== n) return;
            r.off('message', on);
            res(m);
          };
          r.on('message', on);
        }),
    );
    for (const r of racers) r.send({ trial: n, file, log, startAt, holdMs: 40 });
    return Promise.all(replies);
  }

  const stales: Record<string, (lock: string) => void> = {
    'no lock': () => {},
    'a stale lock of a dead process': (lock) =>
      fs.writeFileSync(lock, JSON.stringify({ pid: 2147483646, start: '1', host: os.hostname(), token: 'dead' }) + '\n'),
    'a stale lock in the old pid-only form': (lock) => fs.writeFileSync(lock, '2147483646'),
    'an empty lock a minute old': (lock) => {
      fs.writeFileSync(lock, '');
      const old = new Date(Date.now() - 60_000);
      fs.utimesSync(lock, old, old);
    },
  };

  for (const [name, setup] of Object.entries(stales)) {
    it(`P4: ${RACERS} processes released together never hold the lock at once (${TRIALS} trials, ${name})`, async () => {
      let winners = 0;
      for (let n = 0; n < TRIALS; n++) {
        const file = path.join(dir, `t${n}.db`);
        const log = path.join(dir, `t${n}.log`);
        setup(`${file}.lock`);
        const replies = await trial(n, file, log);
        const errors = replies.filter((r) => r.error);
        assert.deepEqual(errors, [], 'no racer failed other than with StateDbBusyError');
        const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
        assert.equal(maxHolders(lines), 1, `trial ${n}: two holders at once:\n${lines.join('\n')}`);
        assert.ok(replies.some((r) => r.won), `trial ${n}: somebody took the lock`);
        winners += replies.filter((r) => r.won).length;
        assert.equal(fs.existsSync(`${file}.lock`), false, 'the last holder released it');
      }
      assert.ok(winners >= TRIALS);
    });
  }
});
