import { Emitter, type Disposable, type Event } from './emitter';

/**
 * The one owner of everything the agent's parts keep per session (the repeat guard's reads, the
 * prompt and pruning caches, the active tool sets, token ratios, costs, budgets, the live
 * sessions). A part never makes its own `Map<sessionId, ...>`: it asks for a slice here, and
 * releasing a session (the user left it, a subagent finished, it was deleted) empties every
 * slice at once, so a cache added later cannot outlive its session. What lives outside the agent
 * (the session's browser page) goes through onRelease, told of that same release.
 */
export class SessionStates {
  private readonly slices: Array<{ name: string; map: Map<string, unknown> }> = [];
  private readonly released: Emitter<string>;

  /** `onListenerError`: told when an onRelease listener throws (the release itself goes on). */
  constructor(opts: { onListenerError?: (error: unknown) => void } = {}) {
    this.released = new Emitter<string>(opts.onListenerError ? { onListenerError: opts.onListenerError } : {});
  }

  /** Hears each session id released, after every slice dropped it. */
  readonly onRelease: Event<string> = (listener) => this.released.event(listener);

  /** A part's per-session map, keyed by session id; only `release` removes a session from it. */
  slice<V>(name: string): Map<string, V> {
    const map = new Map<string, V>();
    this.slices.push({ name, map: map as Map<string, unknown> });
    return map;
  }

  /** A session's scope: disposing it releases the session from every slice. */
  scope(sessionId: string): Disposable {
    return { dispose: () => this.release(sessionId) };
  }

  /** Drops what every part keeps for a session (state.db keeps the session itself), then tells onRelease. */
  release(sessionId: string): void {
    for (const s of this.slices) s.map.delete(sessionId);
    this.released.fire(sessionId);
  }

  /** The slices that still keep something for a session, by name (tests: a leak names its part). */
  holding(sessionId: string): string[] {
    return this.slices.filter((s) => s.map.has(sessionId)).map((s) => s.name);
  }

  /** Every slice's name, in the order the parts asked for them. */
  names(): string[] {
    return this.slices.map((s) => s.name);
  }
}
