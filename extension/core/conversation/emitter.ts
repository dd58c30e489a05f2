/**
 * The one event toolkit of core, in VS Code's style: `Disposable`, `Event<T>` (a function that
 * takes a listener and returns a Disposable), `Emitter<T>` and `DisposableStore`. The shapes match
 * vscode's own, so the host hands vscode disposables to the same store and core events to vscode.
 */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => void) => Disposable;

export interface EmitterOptions {
  /** Told when a listener throws; the other listeners and the code that fired go on. Default: console.error. */
  onListenerError?: (error: unknown) => void;
}

const reportToConsole = (error: unknown): void => console.error('Snowpea: an event listener failed:', error);

export class Emitter<T> implements Disposable {
  /** One entry per subscription, so the same function subscribed twice is called twice and released once per dispose. */
  private readonly listeners = new Set<{ listener: (e: T) => void }>();
  private disposed = false;

  constructor(private readonly options: EmitterOptions = {}) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    const entry = { listener };
    this.listeners.add(entry);
    return { dispose: () => void this.listeners.delete(entry) };
  };

  /** Calls every listener subscribed now (one released by an earlier listener of this fire is skipped). */
  fire(e: T): void {
    for (const entry of [...this.listeners]) {
      if (!this.listeners.has(entry)) continue;
      try {
        entry.listener(e);
      } catch (error) {
        this.report(error);
      }
    }
  }

  /** How many subscriptions are live (a sender can skip work nobody will receive). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Drops every listener; later subscriptions are ignored and later fires call nobody. */
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }

  private report(error: unknown): void {
    const hook = this.options.onListenerError ?? reportToConsole;
    try {
      hook(error);
    } catch (hookError) {
      reportToConsole(error);
      reportToConsole(hookError);
    }
  }
}

/**
 * Disposables released together, newest first: an object's subscriptions, or a scope that starts
 * over (`clear()`, e.g. a webview's listeners when VS Code disposes the view). Every item is
 * released even when one throws; the throw then comes at the end (AggregateError for several).
 */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  /** Holds `d` until clear() or dispose(); once the store is disposed, `d` is released at once. */
  add<D extends Disposable>(d: D): D {
    if (this.disposed) {
      d.dispose();
      return d;
    }
    this.items.push(d);
    return d;
  }

  /** Releases what the store holds now; it keeps taking new items. */
  clear(): void {
    const items = this.items.reverse();
    this.items = [];
    const errors: unknown[] = [];
    for (const d of items) {
      try {
        d.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed to dispose`);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}
