/**
 * Runs a downscale job in a worker thread with a memory bound, one job at a time, so a 20 MB
 * image never blocks or bloats the extension host. The worker is dist/image-worker.js beside
 * the bundle (extension.js, cli.js), or image-worker.ts beside this file under tsx.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DownscaleJob, DownscaleReply, DownscaleResult } from './downscale-protocol';
import { ImageError } from './limits';

export type { DownscaleJob, DownscaleReply };

export type { DownscaleResult };

/** Turns an over-limit image into one within limits, or throws ImageError. */
export type Downscaler = (job: DownscaleJob, signal?: AbortSignal) => Promise<DownscaleResult>;

export interface WorkerDownscalerOptions {
  /** The worker file; default: located beside the bundle or this source file. */
  workerFile?: string;
  /**
   * V8 heap bound of the worker (MB). Decoding 8000x6000 peaks near 50 MB of heap; the pixels
   * (about 480 MB there) live in array buffers, which MAX_DECODE_PIXELS bounds instead.
   */
  maxOldGenerationSizeMb?: number;
  /** A job that takes longer is stopped (ms). */
  timeoutMs?: number;
}

export const WORKER_BUNDLE_NAME = 'image-worker.js';
const WORKER_SOURCE_NAME = 'image-worker.ts';

/** How to start the worker: the bundled .js as a file, or the .ts source through tsx's require hook. */
export interface WorkerLaunch {
  /** A file path, or (eval) a CommonJS snippet. */
  code: string;
  eval: boolean;
  /** The file that does the work, for messages. */
  file: string;
}

/** Where the worker is: dist/image-worker.js beside the bundle, else image-worker.ts beside this source (tests, bench). */
export function locateImageWorker(dir = __dirname): WorkerLaunch {
  const bundled = path.join(dir, WORKER_BUNDLE_NAME);
  if (fs.existsSync(bundled)) return { code: bundled, eval: false, file: bundled };
  const source = path.join(dir, WORKER_SOURCE_NAME);
  if (fs.existsSync(source)) return launchSource(source);
  throw new Error(`the image worker is missing: looked for ${bundled} and ${source}`);
}

function launchSource(source: string): WorkerLaunch {
  let hook: string;
  try {
    hook = require.resolve('tsx/cjs');
  } catch {
    throw new Error(`the image worker bundle is missing and tsx is not available to run ${source}`);
  }
  return { code: `require(${JSON.stringify(hook)}); require(${JSON.stringify(source)});`, eval: true, file: source };
}

let queue: Promise<unknown> = Promise.resolve();

/** Jobs run one after another: two gigabyte-sized decodes at once would not fit the bound's intent. */
function serialized<T>(fn: () => Promise<T>): Promise<T> {
  const next = queue.then(fn, fn);
  queue = next.catch(() => undefined);
  return next;
}

export function workerDownscaler(opts: WorkerDownscalerOptions = {}): Downscaler {
  return (job, signal) => serialized(() => runInWorker(job, opts, signal));
}

function runInWorker(job: DownscaleJob, opts: WorkerDownscalerOptions, signal?: AbortSignal): Promise<DownscaleResult> {
  if (signal?.aborted) return Promise.reject(new ImageError('cancelled', 'cancelled before the image was processed'));
  let worker: Worker;
  try {
    const launch = opts.workerFile ? (opts.workerFile.endsWith('.ts') ? launchSource(opts.workerFile) : { code: opts.workerFile, eval: false, file: opts.workerFile }) : locateImageWorker();
    worker = new Worker(launch.code, {
      eval: launch.eval,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb ?? 512, maxYoungGenerationSizeMb: 64 },
    });
  } catch (e) {
    return Promise.reject(new ImageError('failed', (e as Error).message));
  }
  return new Promise<DownscaleResult>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, value?: DownscaleResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(value!);
    };
    const onAbort = () => finish(new ImageError('cancelled', 'cancelled while the image was being processed'));
    const timeoutMs = opts.timeoutMs ?? 300_000;
    const timer = setTimeout(() => finish(new ImageError('failed', `processing took longer than ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: DownscaleReply) => {
      if (reply.ok) finish(null, reply);
      else finish(new ImageError(reply.kind, reply.message));
    });
    worker.once('error', (e: Error & { code?: string }) => {
      const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(new ImageError('failed', oom ? 'decoding it needs more memory than the image worker may use' : `the image worker failed (${e.message})`));
    });
    worker.once('exit', (code) => finish(new ImageError('failed', `the image worker stopped (exit code ${code}) before answering`)));
    worker.postMessage(job);
  });
}
