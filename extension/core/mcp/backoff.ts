/** Restart delays after crashes and failed starts: base, doubling per consecutive failure, capped. */
export interface BackoffOptions {
  /** First delay (default 1,000 ms). */
  baseMs?: number;
  /** Largest delay (default 60,000 ms). */
  maxMs?: number;
  /** A call waits for a pending restart at most this long; beyond it, it fails at once (default 5,000 ms). */
  maxWaitMs?: number;
}

export class Backoff {
  private failures = 0;
  private lastAt = 0;
  readonly baseMs: number;
  readonly maxMs: number;
  readonly maxWaitMs: number;

  constructor(o: BackoffOptions = {}, private readonly now: () => number = Date.now) {
    this.baseMs = o.baseMs ?? 1000;
    this.maxMs = o.maxMs ?? 60_000;
    this.maxWaitMs = o.maxWaitMs ?? 5000;
  }

  get count(): number {
    return this.failures;
  }

  fail(): void {
    this.failures++;
    this.lastAt = this.now();
  }

  succeed(): void {
    this.failures = 0;
  }

  /** Milliseconds until the next attempt may start (0 when it may start now). */
  remainingMs(): number {
    if (!this.failures) return 0;
    const delay = Math.min(this.maxMs, this.baseMs * 2 ** (this.failures - 1));
    return Math.max(0, this.lastAt + delay - this.now());
  }
}
