import assert from 'node:assert/strict';
import { DisposableStore, Emitter, type Disposable } from '../../../extension/core/conversation/emitter';

/** A disposable that records its release in `log` (and throws when asked to). */
function recorded(log: string[], name: string, fail?: Error): Disposable {
  return {
    dispose: () => {
      log.push(name);
      if (fail) throw fail;
    },
  };
}

describe('conversation: Emitter', () => {
  it('calls each subscription in order; a disposed one is not called again', () => {
    const e = new Emitter<number>();
    const seen: string[] = [];
    const a = e.event((n) => seen.push(`a${n}`));
    e.event((n) => seen.push(`b${n}`));
    e.fire(1);
    a.dispose();
    e.fire(2);
    assert.deepEqual(seen, ['a1', 'b1', 'b2']);
  });

  it('listenerCount counts live subscriptions (the host skips building messages nobody receives)', () => {
    const e = new Emitter<number>();
    assert.equal(e.listenerCount, 0);
    const a = e.event(() => undefined);
    const b = e.event(() => undefined);
    assert.equal(e.listenerCount, 2);
    a.dispose();
    assert.equal(e.listenerCount, 1);
    b.dispose();
    assert.equal(e.listenerCount, 0);
  });

  it('the same function subscribed twice is called twice, and one dispose releases one subscription', () => {
    const e = new Emitter<void>();
    let calls = 0;
    const f = () => calls++;
    const first = e.event(f);
    e.event(f);
    e.fire();
    assert.equal(calls, 2);
    first.dispose();
    e.fire();
    assert.equal(calls, 3);
  });

  it('a listener that throws is reported to onListenerError with its error, and the other listeners still run', () => {
    const errors: unknown[] = [];
    const e = new Emitter<string>({ onListenerError: (err) => errors.push(err) });
    const seen: string[] = [];
    const boom = new Error('listener broke');
    e.event(() => {
      throw boom;
    });
    e.event((s) => seen.push(s));
    assert.doesNotThrow(() => e.fire('x'));
    assert.deepEqual(seen, ['x']);
    assert.deepEqual(errors, [boom]);
  });

  it('without a hook a listener’s throw goes to console.error (never silently dropped); a throwing hook does not break fire', () => {
    const printed: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void printed.push(args);
    try {
      const plain = new Emitter<void>();
      plain.event(() => {
        throw new Error('first');
      });
      plain.fire();
      const badHook = new Emitter<void>({
        onListenerError: () => {
          throw new Error('hook broke');
        },
      });
      badHook.event(() => {
        throw new Error('second');
      });
      assert.doesNotThrow(() => badHook.fire());
    } finally {
      console.error = original;
    }
    const messages = printed.map((args) => (args[1] as Error).message);
    assert.deepEqual(messages, ['first', 'second', 'hook broke']);
  });

  it('a listener released by an earlier listener during the same fire is skipped', () => {
    const e = new Emitter<void>();
    const seen: string[] = [];
    let second: Disposable | undefined = undefined;
    e.event(() => {
      seen.push('first');
      second?.dispose();
    });
    second = e.event(() => seen.push('second'));
    e.fire();
    assert.deepEqual(seen, ['first']);
  });

  it('after dispose nobody is called and new subscriptions are ignored', () => {
    const e = new Emitter<void>();
    let calls = 0;
    e.event(() => calls++);
    e.dispose();
    const late = e.event(() => calls++);
    e.fire();
    late.dispose();
    assert.equal(calls, 0);
  });
});

describe('conversation: DisposableStore', () => {
  it('dispose releases everything it holds, newest first, once', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    const held = recorded(log, 'a');
    assert.equal(store.add(held), held);
    store.add(recorded(log, 'b'));
    store.dispose();
    store.dispose();
    assert.deepEqual(log, ['b', 'a']);
  });

  it('clear releases the current items and keeps taking new ones (a view scope that starts over)', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(recorded(log, 'view 1'));
    store.clear();
    store.add(recorded(log, 'view 2'));
    assert.deepEqual(log, ['view 1']);
    store.dispose();
    assert.deepEqual(log, ['view 1', 'view 2']);
  });

  it('what is added after dispose is released at once', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.dispose();
    store.add(recorded(log, 'late'));
    assert.deepEqual(log, ['late']);
  });

  it('every item is released even when some throw; one failure is rethrown as is, several as an AggregateError', () => {
    const log: string[] = [];
    const one = new DisposableStore();
    const broke = new Error('broke');
    one.add(recorded(log, 'a'));
    one.add(recorded(log, 'b', broke));
    assert.throws(() => one.dispose(), (e) => e === broke);
    assert.deepEqual(log, ['b', 'a']);

    const several = new DisposableStore();
    several.add(recorded(log, 'c', new Error('c broke')));
    several.add(recorded(log, 'd', new Error('d broke')));
    several.add(recorded(log, 'e'));
    assert.throws(
      () => several.dispose(),
      (e) => e instanceof AggregateError && e.errors.map((x: Error) => x.message).join() === 'd broke,c broke',
    );
    assert.deepEqual(log.slice(2), ['e', 'd', 'c']);
  });

  it('a nested store (a view scope inside its provider) is released with its parent', () => {
    const log: string[] = [];
    const provider = new DisposableStore();
    provider.add(recorded(log, 'host subscription'));
    const view = provider.add(new DisposableStore());
    view.add(recorded(log, 'message listener'));
    provider.dispose();
    assert.deepEqual(log, ['message listener', 'host subscription']);
    view.add(recorded(log, 'after'));
    assert.deepEqual(log.at(-1), 'after', 'the nested store is disposed too: a late add is released at once');
  });
});
