/**
 * The fallback when ripgrep is not installed: JavaScript regular expressions over git-visible
 * files, run in a worker thread with a deadline. A pattern that backtracks catastrophically, a
 * cancel, or a slow disk stops the worker (the caller's thread never waits on a regex), and the
 * result says where the search stopped. Files over a size limit are skipped and counted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ScanJob, ScanMessage } from './grep-scan';
import type { GrepBackend, GrepMatch, GrepOutcome, GrepQuery } from './grep-types';

export { globFilter, printedPath } from './match-paths';

export const GREP_WORKER_BUNDLE = 'grep-worker.js';
const GREP_WORKER_SOURCE = 'grep-worker.ts';

export interface JsGrepOptions {
  /** The search is stopped after this long (default 10 s). */
  timeoutMs?: number;
  /** Larger files are skipped, not read (default 10 MB). */
  maxFileBytes?: number;
  /** The worker file (default: dist/grep-worker.js beside the bundle, else grep-worker.ts under tsx). */
  workerFile?: string;
  /** Called as the search of each file begins (progress). */
  onFile?: (file: string) => void;
}

export const JS_GREP_TIMEOUT_MS = 10_000;
export const JS_GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;
const WORKER_START_MS = 30_000;

/** The worker file: dist/grep-worker.js beside the bundle (extension.js, cli.js), else grep-worker.ts beside this source (tests). */
export function locateGrepWorker(dir = __dirname): string {
  const bundled = path.join(dir, GREP_WORKER_BUNDLE);
  if (fs.existsSync(bundled)) return bundled;
  const source = path.join(dir, GREP_WORKER_SOURCE);
  if (fs.existsSync(source)) return source;
  throw new Error(`grep's search worker is missing: looked for ${bundled} and ${source}`);
}

/** A bundled .js starts as a file; the .ts source through tsx's require hook. */
function startWorker(file: string): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: 512 };
  if (!file.endsWith('.ts')) return new Worker(file, { resourceLimits });
  let hook: string;
  try {
    hook = require.resolve('tsx/cjs');
  } catch {
    throw new Error(`grep's search worker bundle is missing and tsx is not available to run ${file}`);
  }
  return new Worker(`require(${JSON.stringify(hook)}); require(${JSON.stringify(file)});`, { eval: true, resourceLimits });
}

export function makeJsGrepBackend(o: JsGrepOptions = {}): GrepBackend {
  return (q) => runInWorker(q, o);
}

function runInWorker(q: GrepQuery, o: JsGrepOptions): Promise<GrepOutcome> {
  try {
    new RegExp(q.pattern, q.ignoreCase ? 'i' : '');
  } catch (e) {
    return Promise.resolve({ ok: false, badPattern: (e as Error).message });
  }
  const timeoutMs = o.timeoutMs ?? JS_GREP_TIMEOUT_MS;
  const maxFileBytes = o.maxFileBytes ?? JS_GREP_MAX_FILE_BYTES;
  if (q.signal.aborted) return Promise.resolve({ ok: true, matches: [], total: 0, stopped: { reason: 'cancelled', message: 'the search was cancelled before it started' } });
  let worker: Worker;
  try {
    worker = startWorker(o.workerFile ?? locateGrepWorker());
  } catch (e) {
    return Promise.reject(e);
  }
  const matches: GrepMatch[] = [];
  let total = 0;
  let searched = 0;
  let current: string | undefined;
  let limitReached = false;
  const skipped: string[] = [];
  return new Promise<GrepOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (stop?: { reason: 'timeout' | 'cancelled'; message: string }, err?: Error | { badPattern: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      q.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err instanceof Error) return reject(err);
      if (err) return resolve({ ok: false, badPattern: err.badPattern });
      const where = current ? ` while searching ${current}` : '';
      const stopped = stop && { reason: stop.reason, message: `${stop.message}${where} (${searched} file${searched === 1 ? '' : 's'} searched before it)` };
      resolve({
        ok: true,
        matches,
        total,
        ...(stopped ? { stopped } : {}),
        ...(limitReached && !stopped ? { limitReached: { searched } } : {}),
        ...(skipped.length ? { skippedLarge: { count: skipped.length, examples: skipped.slice(0, 5), limitBytes: maxFileBytes } } : {}),
      });
    };
    const onAbort = () => finish({ reason: 'cancelled', message: 'the search was cancelled' });
    // The deadline runs from the worker's first report (starting it, under tsx in tests, takes a while), with a bound on the start itself.
    let timer = setTimeout(() => finish({ reason: 'timeout', message: `the search worker did not start within ${WORKER_START_MS / 1000} s` }), WORKER_START_MS);
    let started = false;
    q.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: ScanMessage) => {
      if (!started) {
        started = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish({ reason: 'timeout', message: `the search took longer than ${timeoutMs / 1000} s and was stopped` }), timeoutMs);
      }
      if (m.t === 'bad-pattern') return finish(undefined, { badPattern: m.message });
      if (m.t === 'failed') return finish(undefined, new Error(m.message));
      for (const x of m.matches) if (matches.length < q.maxResults) matches.push(x);
      total += m.found;
      searched = m.searched;
      if (m.skipped) skipped.push(m.skipped);
      if (m.t === 'done' && m.limitReached) limitReached = true;
      current = m.current;
      if (current) o.onFile?.(current);
      if (m.t === 'done') finish();
    });
    worker.once('error', (e: Error & { code?: string }) => {
      const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(undefined, new Error(oom ? 'the search needed more memory than its worker may use; narrow path or glob' : `the search worker failed (${e.message})`));
    });
    worker.once('exit', (code) => finish(undefined, new Error(`the search worker stopped (exit code ${code}) before it finished`)));
    const job: ScanJob = { root: q.root, base: q.base, pattern: q.pattern, glob: q.glob, ignoreCase: q.ignoreCase, maxResults: q.maxResults, maxFileBytes };
    worker.postMessage(job);
  });
}
