/**
 * The grep worker's entry: one search per worker, reported as it goes (grep-scan.ts).
 * Bundled as dist/grep-worker.js beside the extension and the CLI; run from source under tsx.
 */
import { parentPort } from 'node:worker_threads';
import { scan, type ScanJob, type ScanMessage } from './grep-scan';

const port = parentPort;
if (!port) throw new Error('grep-worker.ts runs as a worker thread only');

port.once('message', (job: ScanJob) => {
  scan(job, (m) => port.postMessage(m)).catch((e: Error) => port.postMessage({ t: 'failed', message: e?.message ?? String(e) } satisfies ScanMessage));
});
