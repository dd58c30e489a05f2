/** A tiny typed event emitter in VS Code's style: `event(listener)` returns a disposable. */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // a faulty listener must not break the loop or other listeners
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
