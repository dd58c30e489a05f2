/**
 * Retry timing for model requests: exponential backoff with jitter, the server's
 * Retry-After honoured, every delay bounded.
 */

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay; doubles with each retry (default 500 ms). */
  baseDelayMs: number;
  /** Upper bound for any delay, Retry-After included (default 30 s). */
  maxDelayMs: number;
}

export const defaultRetryTiming = { baseDelayMs: 500, maxDelayMs: 30_000 } as const;

/** Minimal view of response headers: the SDK's Headers, or a plain record. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | undefined> | undefined | null;

function header(h: HeaderSource, name: string): string | null {
  if (!h) return null;
  if (typeof (h as { get?: unknown }).get === 'function') return (h as { get(n: string): string | null }).get(name);
  const rec = h as Record<string, string | undefined>;
  return rec[name] ?? rec[name.toLowerCase()] ?? null;
}

/**
 * The delay a server asked for, in ms: `retry-after-ms`, or `retry-after` as seconds
 * (fractions allowed) or an HTTP date. Null when absent or unreadable.
 */
export function retryAfterMs(h: HeaderSource, now = Date.now()): number | null {
  const ms = header(h, 'retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = header(h, 'retry-after');
  if (ra === null || ra.trim() === '') return null;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * Delay before retry number `attempt` (1-based): the server's Retry-After when given,
 * else base * 2^(attempt-1) with up to 25% jitter subtracted; never above maxDelayMs.
 */
export function retryDelayMs(attempt: number, serverMs: number | null, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random = Math.random): number {
  if (serverMs !== null) return Math.min(Math.round(serverMs), policy.maxDelayMs);
  const exp = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  const jittered = exp * (1 - 0.25 * random());
  return Math.min(Math.round(jittered), policy.maxDelayMs);
}

/** Waits ms, or rejects with `onAbort()` as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(onAbort());
    const done = () => {
      signal.removeEventListener('abort', abort);
      resolve();
    };
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}
