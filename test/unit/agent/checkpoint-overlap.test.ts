import assert from 'node:assert/strict';
import type { CheckpointSeam } from '../../../extension/core/conversation/checkpoint-seam';
import type { AnyTool } from '../../../extension/core/tools/types';
import { createHarness, type Harness } from '../../fixtures/agent-harness';
import { waitUntil } from '../../fixtures/eventually';

/** A checkpoint store whose snapshots finish only when the test says so, logging the order of things. */
function heldCheckpoints(log: string[]): CheckpointSeam & { release(): void; turns: number[] } {
  let release = () => {};
  const turns: number[] = [];
  return {
    turns,
    release: () => release(),
    atTurnStart: (_id, turn) => {
      turns.push(turn);
      return new Promise<void>((resolve) => {
        release = () => {
          log.push(`checkpoint ${turn}`);
          resolve();
        };
      });
    },
    forget: async () => {},
  };
}

/** Every built-in tool logs that it ran before running. */
const logging =
  (log: string[]) =>
  (t: AnyTool): AnyTool => ({ ...t, run: (args, ctx) => (log.push(`ran ${t.name}`), t.run(args, ctx)) });

describe('checkpoint before a turn, taken while the first request is out', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sends the first request before the checkpoint is done, but runs no tool until it is', async () => {
    const log: string[] = [];
    const cp = heldCheckpoints(log);
    h = await createHarness({ checkpoints: cp, wrapTool: logging(log), files: { 'a.txt': 'hello\n' } });
    h.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: 'a.txt' }) }] }, { text: 'done' });
    const session = h.agent.newSession();
    const turn = h.agent.runTurn(session, 'read a.txt', new AbortController().signal);

    await waitUntil(() => session.messages.some((m) => m.role === 'assistant'), 'the first answer, with the checkpoint still running');
    assert.equal(h.bodies().length, 1, 'the first request went out while the checkpoint ran');
    assert.deepEqual(cp.turns, [1]);

    cp.release();
    const result = await turn;
    assert.equal(result.reason, 'done');
    assert.deepEqual(log, ['checkpoint 1', 'ran read_file'], 'the tool ran only once the checkpoint was recorded');
    assert.match(h.bodies()[1].messages.find((m: { role: string }) => m.role === 'tool').content, /hello/);
  });

  it('a turn without tools ends only once its checkpoint is recorded', async () => {
    const log: string[] = [];
    const cp = heldCheckpoints(log);
    h = await createHarness({ checkpoints: cp });
    h.server.enqueue({ text: 'just an answer' });
    h.agent.onEvent((e) => void (e.type === 'turn.end' && log.push('turn.end')));
    const turn = h.agent.runTurn(h.agent.newSession(), 'hi', new AbortController().signal).then((r) => (log.push('turn returned'), r));

    await waitUntil(() => h!.events.some((e) => e.type === 'text.delta'), 'the answer');
    // turn.end lets the chat send again: it comes only once the checkpoint is recorded, so the next message is never refused as "a turn is running".
    assert.equal(h.events.some((e) => e.type === 'turn.end'), false, 'no turn.end before the checkpoint');
    cp.release();
    assert.equal((await turn).text, 'just an answer');
    assert.deepEqual(log, ['checkpoint 1', 'turn.end', 'turn returned'], 'the turn (and its turn.end) waits for its checkpoint');
  });

  it('a stop while the checkpoint runs ends the turn cancelled without running the tool', async () => {
    const log: string[] = [];
    const cp = heldCheckpoints(log);
    h = await createHarness({ checkpoints: cp, wrapTool: logging(log), files: { 'a.txt': 'hello\n' } });
    h.server.enqueue({ toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: 'a.txt' }) }] }, { text: 'done' });
    const session = h.agent.newSession();
    const stop = new AbortController();
    const turn = h.agent.runTurn(session, 'read a.txt', stop.signal);
    await waitUntil(() => session.messages.some((m) => m.role === 'assistant'), 'the first answer');
    stop.abort();
    cp.release(); // the store ends a cancelled snapshot by itself; here the test ends it
    const result = await turn;
    assert.equal(result.reason, 'cancelled');
    assert.deepEqual(log, ['checkpoint 1']);
    assert.equal(h.bodies().length, 1);
  });
});
