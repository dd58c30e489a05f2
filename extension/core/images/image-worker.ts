/**
 * The image worker's entry: one job per worker (decode, fit, encode), answered once.
 * Bundled as dist/image-worker.js beside the extension and the CLI; run from source under tsx.
 */
import { parentPort } from 'node:worker_threads';
import type { DownscaleJob, DownscaleReply } from './downscale-protocol';
import { reencode } from './reencode';

const port = parentPort;
if (!port) throw new Error('image-worker.ts runs as a worker thread only');

port.once('message', (job: DownscaleJob) => {
  reencode(job).then(
    (reply) => port.postMessage(reply, reply.ok ? [reply.bytes.buffer as ArrayBuffer] : []),
    (e: Error) => port.postMessage({ ok: false, kind: 'failed', message: e?.message ?? String(e) } satisfies DownscaleReply),
  );
});
