/**
 * The fault suite: a multi-round CLI run against a strict provider, SIGKILLed at a random point
 * (seeded, so a failure can be replayed with FAULT_SEED), 20 times. After each kill: state.db
 * opens, every round the server saw completed before the kill is stored, no stored tool call
 * lacks its result, and `run --session ID "continue"` completes. One summary line reports the
 * figures (faults tried, survived, rounds lost).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startScriptedServer, type Step } from '../../fixtures/scripted-server';
import { cli, ensureCliBundle } from '../cli/run-cli';
import { prng, readStored, startCli } from './kill-cli';

const ITERATIONS = 20;
const ROUNDS = 5;
const SEED = Number(process.env.FAULT_SEED ?? 20261203);

/** Round k writes f<k>.txt and reads f<k-1>.txt back; then a final answer. Each reply starts after 20 ms. */
function step(index: number): Step {
  if (index >= ROUNDS) return { text: 'All files written.', fault: { firstByteDelayMs: 20 } };
  const k = index + 1;
  return {
    toolCalls: [
      { name: 'write_file', arguments: JSON.stringify({ path: `f${k}.txt`, content: `file ${k}\n`.repeat(20) }) },
      { name: 'read_file', arguments: JSON.stringify({ path: k > 1 ? `f${k - 1}.txt` : 'seed.txt' }) },
    ],
    fault: { firstByteDelayMs: 20 },
  };
}

describe('fault suite: SIGKILL at random points of a multi-round run, then resume against a strict provider', function () {
  // 40 CLI processes: a generous bound that only catches a hang (the machine may be loaded).
  this.timeout(600_000);
  before(ensureCliBundle);

  it(`${ITERATIONS} kills (seed ${SEED}): every completed round kept, no orphan call sent, every session resumes`, async () => {
    const random = prng(SEED);
    const totals = { tried: 0, survived: 0, lost: 0, guaranteed: 0, persisted: 0 };
    const failures: string[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const server = await startScriptedServer({ strict: true, chunkDelayMs: 2 });
      const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-fault-ws-')));
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-fault-home-'));
      fs.writeFileSync(path.join(ws, 'seed.txt'), 'seed\n');
      const db = path.join(home, 'state.db');
      // The kill point: on receipt of request `at` (1..ROUNDS), after `delay` ms: mid-stream, during the tools or the commit.
      const at = 1 + Math.floor(random() * ROUNDS);
      const delay = Math.floor(random() * 100);
      const point = `iteration ${i}: request ${at} + ${delay} ms`;
      try {
        const run = startCli(['run', 'write the files', '--base-url', server.baseUrl, '--model', 'gpt-4o', '--yes', '--state-db', db], { cwd: ws, home });
        server.setResponder((_body, index) => {
          if (index === at) setTimeout(() => run.child.kill('SIGKILL'), delay);
          return step(index);
        });
        const killed = await run.done;
        totals.tried++;
        const seen = server.chatRequests().length;
        // Request k+1 is sent only after round k's commit resolved: seen - 1 rounds are guaranteed.
        const guaranteed = killed.signal === 'SIGKILL' ? seen - 1 : ROUNDS + 1;
        const stored = await readStored(db);
        totals.guaranteed += guaranteed;
        totals.persisted += stored.rounds;
        totals.lost += Math.max(0, guaranteed - stored.rounds);
        assert.ok(stored.id, `${point}: a session is stored`);
        assert.ok(stored.rounds >= guaranteed, `${point}: ${stored.rounds} rounds stored, ${guaranteed} completed before the kill`);
        assert.equal(stored.pairing, null, `${point}: the stored transcript has a call without its result`);

        server.setResponder(() => ({ text: 'Resumed and done.' }));
        const resumed = await cli(['run', '--session', stored.id!, 'continue', '--base-url', server.baseUrl, '--model', 'gpt-4o', '--yes', '--state-db', db], { cwd: ws, home });
        assert.equal(resumed.code, 0, `${point}: resume failed: ${resumed.stderr}`);
        assert.equal(server.rejected.length, 0, `${point}: a request carried a call without its result`);
        totals.survived++;
      } catch (e) {
        failures.push((e as Error).message);
      } finally {
        await server.close();
        fs.rmSync(ws, { recursive: true, force: true });
        fs.rmSync(home, { recursive: true, force: true });
      }
    }
    console.log(
      `    fault suite (seed ${SEED}): ${totals.tried} SIGKILLs tried, ${totals.survived} survived (state.db opened, completed rounds kept, resumed against a strict provider), ` +
        `${totals.lost} rounds lost (${totals.guaranteed} rounds completed before the kills, ${totals.persisted} stored)`,
    );
    assert.deepEqual(failures, []);
    assert.equal(totals.survived, ITERATIONS);
    assert.equal(totals.lost, 0);
  });
});
