import assert from 'node:assert/strict';
import { ReadyQueue } from '../../../extension/protocol/ready-queue';

function recording<T>(options?: ConstructorParameters<typeof ReadyQueue<T>>[1]) {
  const delivered: T[] = [];
  const queue = new ReadyQueue<T>((m) => delivered.push(m), options);
  return { queue, delivered };
}

describe('protocol: ReadyQueue (ready handshake)', () => {
  it('queues messages posted before ready and flushes them in order on ready', () => {
    const { queue, delivered } = recording<string>();
    queue.post('init');
    queue.post('transcript');
    queue.post('event-1');
    assert.deepEqual(delivered, []);
    assert.equal(queue.pending, 3);
    assert.equal(queue.isReady, false);

    const report = queue.markReady();
    assert.deepEqual(delivered, ['init', 'transcript', 'event-1']);
    assert.deepEqual(report, { flushed: 3, dropped: 0 });
    assert.equal(queue.pending, 0);
    assert.equal(queue.isReady, true);
  });

  it('delivers immediately once ready', () => {
    const { queue, delivered } = recording<number>();
    queue.markReady();
    queue.post(1);
    assert.deepEqual(delivered, [1]);
    assert.equal(queue.pending, 0);
  });

  it('queues again after unready() and flushes on the next ready', () => {
    const { queue, delivered } = recording<string>();
    queue.markReady();
    queue.post('a');
    queue.unready();
    queue.post('b');
    queue.post('c');
    assert.deepEqual(delivered, ['a']);
    assert.equal(queue.markReady().flushed, 2);
    assert.deepEqual(delivered, ['a', 'b', 'c']);
  });

  it('keeps order when delivering a message posts another one', () => {
    const delivered: string[] = [];
    const queue: ReadyQueue<string> = new ReadyQueue<string>((m) => {
      delivered.push(m);
      if (m === 'first') queue.post('posted-during-flush');
    });
    queue.post('first');
    queue.post('second');
    queue.markReady();
    assert.deepEqual(delivered, ['first', 'second', 'posted-during-flush']);
  });

  it('stops flushing when the webview goes away mid-flush and keeps the rest', () => {
    const delivered: string[] = [];
    const queue: ReadyQueue<string> = new ReadyQueue<string>((m) => {
      delivered.push(m);
      if (m === 'b') queue.unready();
    });
    for (const m of ['a', 'b', 'c', 'd']) queue.post(m);
    assert.equal(queue.markReady().flushed, 2);
    assert.deepEqual(delivered, ['a', 'b']);
    assert.equal(queue.pending, 2);
    queue.markReady();
    assert.deepEqual(delivered, ['a', 'b', 'c', 'd']);
  });

  it('drops the oldest beyond the limit and reports how many were lost', () => {
    const { queue, delivered } = recording<number>({ limit: 3 });
    for (let i = 1; i <= 5; i++) queue.post(i);
    assert.equal(queue.pending, 3);
    assert.deepEqual(queue.markReady(), { flushed: 3, dropped: 2 });
    assert.deepEqual(delivered, [3, 4, 5]);
    queue.unready();
    queue.post(6);
    assert.deepEqual(queue.markReady(), { flushed: 1, dropped: 0 }, 'the dropped count resets after each ready');
  });

  it('clear() forgets queued messages', () => {
    const { queue, delivered } = recording<string>();
    queue.post('stale-1');
    queue.post('stale-2');
    assert.deepEqual(queue.clear(), []);
    queue.post('fresh');
    queue.markReady();
    assert.deepEqual(delivered, ['fresh']);
  });

  it('clear(keep) returns the messages it keeps, in order, for posting after a replay', () => {
    const { queue, delivered } = recording<string>();
    for (const m of ['event-1', 'composer-a', 'event-2', 'composer-b']) queue.post(m);
    const kept = queue.clear((m) => m.startsWith('composer'));
    assert.deepEqual(kept, ['composer-a', 'composer-b']);
    assert.equal(queue.pending, 0);
    for (const m of ['init', ...kept]) queue.post(m);
    queue.markReady();
    assert.deepEqual(delivered, ['init', 'composer-a', 'composer-b']);
  });

  it('reports a delivery error and goes on with the next message', () => {
    const errors: Array<[string, string]> = [];
    const delivered: string[] = [];
    const queue = new ReadyQueue<string>(
      (m) => {
        if (m === 'bad') throw new Error('webview disposed');
        delivered.push(m);
      },
      { onDeliveryError: (e, m) => errors.push([(e as Error).message, m]) },
    );
    queue.post('a');
    queue.post('bad');
    queue.post('c');
    queue.markReady();
    assert.deepEqual(delivered, ['a', 'c']);
    assert.deepEqual(errors, [['webview disposed', 'bad']]);
  });

  it('without an error handler a throwing delivery propagates, and the rest still flushes on the next post', () => {
    const delivered: string[] = [];
    let fail = true;
    const queue = new ReadyQueue<string>((m) => {
      if (m === 'x' && fail) {
        fail = false;
        throw new Error('boom');
      }
      delivered.push(m);
    });
    queue.post('x');
    queue.post('y');
    assert.throws(() => queue.markReady(), /boom/);
    queue.post('z');
    assert.deepEqual(delivered, ['y', 'z']);
  });
});
