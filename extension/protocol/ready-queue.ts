/**
 * Holds host -> webview messages until the webview has said `ready`, then delivers them in
 * the order they were posted. Pure logic: the host wires `deliver` to `webview.postMessage`.
 *
 * Lifecycle: a fresh webview (or one re-created after being hidden) starts not ready;
 * `markReady()` on its `ready` message flushes the queue; `unready()` when it goes away
 * (disposed, hidden without retained context) makes `post` queue again.
 */

export interface ReadyQueueOptions<T> {
  /** Most messages kept while not ready; the oldest are dropped beyond it. Default 10,000. */
  limit?: number;
  /** Called when `deliver` throws; delivery goes on with the next message. */
  onDeliveryError?: (error: unknown, msg: T) => void;
}

export interface FlushReport {
  /** Messages delivered by this flush. */
  flushed: number;
  /** Messages lost to the limit while not ready; when > 0 the host should replay the transcript. */
  dropped: number;
}

export class ReadyQueue<T> {
  private queue: T[] = [];
  private ready = false;
  private flushing = false;
  private droppedSinceReady = 0;
  private readonly limit: number;

  constructor(
    private readonly deliver: (msg: T) => unknown,
    private readonly options: ReadyQueueOptions<T> = {},
  ) {
    this.limit = Math.max(1, options.limit ?? 10_000);
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Messages waiting for the webview. */
  get pending(): number {
    return this.queue.length;
  }

  /** Delivers now when the webview is ready (after anything older still waiting), else queues. */
  post(msg: T): void {
    this.queue.push(msg);
    if (this.ready) {
      this.drain();
      return;
    }
    if (this.queue.length > this.limit) {
      this.queue.shift();
      this.droppedSinceReady++;
    }
  }

  /** The webview said `ready`: deliver everything queued, oldest first. */
  markReady(): FlushReport {
    this.ready = true;
    const flushed = this.drain();
    const dropped = this.droppedSinceReady;
    this.droppedSinceReady = 0;
    return { flushed, dropped };
  }

  /** The webview went away or is reloading: queue until the next `ready`. */
  unready(): void {
    this.ready = false;
  }

  /**
   * Drops the queued messages (e.g. before replaying the whole transcript) except those `keep`
   * accepts, which are returned in order so they can be posted again after the replay.
   */
  clear(keep: (msg: T) => boolean = () => false): T[] {
    const kept = this.queue.filter(keep);
    this.queue = [];
    return kept;
  }

  /**
   * Delivers queued messages oldest first. A message posted by `deliver` itself is appended
   * and delivered in turn (never ahead of older ones); unready() during it stops the drain
   * and keeps the rest queued.
   */
  private drain(): number {
    if (this.flushing) return 0;
    this.flushing = true;
    let delivered = 0;
    try {
      while (this.ready && this.queue.length > 0) {
        const msg = this.queue.shift() as T;
        delivered++;
        this.deliverOne(msg);
      }
    } finally {
      this.flushing = false;
    }
    return delivered;
  }

  private deliverOne(msg: T): void {
    try {
      this.deliver(msg);
    } catch (error) {
      if (this.options.onDeliveryError) this.options.onDeliveryError(error, msg);
      else throw error;
    }
  }
}
