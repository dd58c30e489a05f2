/**
 * Images: time and peak memory to bring a 20 MB, 8000x6000 PNG and a 12 MP JPEG under the model
 * limits (images.maxDimension 2048, images.maxBytes 5 MB) through the attachment store, and the
 * resulting bytes. Decoding runs in the worker; the host's event loop delay is measured meanwhile
 * to show it stays free. Inputs are generated here, never committed.
 * Run alone: npx tsx bench/images.ts
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { workerDownscaler, type DownscaleResult, type Downscaler } from '../extension/core/images/downscale';
import { limitsFromSettings } from '../extension/core/images/limits';
import { AttachmentStore } from '../extension/core/images/store';
import { defaultSettings } from '../extension/core/settings/schema';
import { makePng } from '../test/fixtures/images/make';

export interface ImageCaseResult {
  name: string;
  input: { width: number; height: number; bytes: number; mime: string };
  output: { width: number; height: number; bytes: number; mime: string };
  /** From addBytes() to the stored model-ready copy. */
  ms: number;
  /** The worker's own peaks: V8 heap and array buffers (pixel data lives in the latter). */
  workerPeakHeapMb: number;
  workerPeakArrayBuffersMb: number;
  /** The whole process (host + worker) resident set: before the case, and its peak, sampled every 20 ms. */
  processRssBeforeMb: number;
  processPeakRssMb: number;
  /** Longest stall of the host's event loop while the image was processed (includes OS scheduling on a loaded machine). */
  hostMaxEventLoopDelayMs: number;
  /** Time the host's event loop was busy (event loop utilization, active ms) while the image was processed. */
  hostBusyMs: number;
  /** The same, less what the watchers and the machine cost at idle over as long (see `idle`). */
  hostBusyOverIdleMs: number;
}

export interface ImagesBenchResult {
  limits: { maxDimension: number; maxBytes: number };
  /** Control: the same watchers over 2 s with nothing to do (their own cost and the machine's noise). */
  idle: { maxEventLoopDelayMs: number; busyMsPerSecond: number };
  cases: ImageCaseResult[];
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** A photo-like 8000x6000 PNG of about 20 MB: smooth shading with a band of noise in every row. */
function bigPng(): Buffer {
  const w = 8000;
  const h = 6000;
  return makePng({ width: w, height: h, noise: 0.112, level: 1, pixel: (x, y) => [(x >> 5) & 0xff, (y >> 5) & 0xff, ((x + y) >> 6) & 0xff, 255] });
}

/** A 12 MP (4000x3000) JPEG at quality 90, encoded once with jimp. */
async function photoJpeg(): Promise<Buffer> {
  const { Jimp } = await import('jimp');
  const img = await Jimp.fromBuffer(makePng({ width: 4000, height: 3000, noise: 0.3, level: 1 }));
  return img.getBuffer('image/jpeg', { quality: 90 });
}

interface HostFigures<T> {
  value: T;
  ms: number;
  busyMs: number;
  maxDelayMs: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

/** Runs fn while watching the host thread: event loop utilization, its longest stall, and the process RSS. */
async function watchHost<T>(fn: () => Promise<T>): Promise<HostFigures<T>> {
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  try {
    const value = await fn();
    return {
      value,
      ms: performance.now() - t0,
      busyMs: performance.eventLoopUtilization(elu0).active,
      maxDelayMs: loop.max / 1e6,
      rssBeforeMb: rssBefore / 1048576,
      peakRssMb: peakRss / 1048576,
    };
  } finally {
    clearInterval(sampler);
    loop.disable();
  }
}

async function runCase(name: string, bytes: Buffer, mime: string, size: { width: number; height: number }, dir: string, idleBusyPerMs: number): Promise<ImageCaseResult> {
  let last: DownscaleResult | undefined;
  const inner = workerDownscaler();
  const recording: Downscaler = async (job, signal) => (last = await inner(job, signal));
  const limits = limitsFromSettings(defaultSettings());
  const store = new AttachmentStore({ dir: path.join(dir, name), limits: () => limits, downscaler: recording });
  const w = await watchHost(() => store.addBytes(bytes, { name, source: 'bench' }));
  const rec = store.get(w.value.imageId)!;
  return {
    name,
    input: { ...size, bytes: bytes.length, mime },
    output: { width: rec.sent.width, height: rec.sent.height, bytes: rec.sent.bytes, mime: rec.sent.mime },
    ms: Math.round(w.ms),
    workerPeakHeapMb: r1(last?.peakHeapMb ?? 0),
    workerPeakArrayBuffersMb: r1(last?.peakArrayBuffersMb ?? 0),
    processRssBeforeMb: r1(w.rssBeforeMb),
    processPeakRssMb: r1(w.peakRssMb),
    hostMaxEventLoopDelayMs: r1(w.maxDelayMs),
    hostBusyMs: Math.round(w.busyMs),
    hostBusyOverIdleMs: Math.max(0, Math.round(w.busyMs - idleBusyPerMs * w.ms)),
  };
}

export async function benchImages(): Promise<ImagesBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-bench-img-'));
  const limits = limitsFromSettings(defaultSettings());
  try {
    // Both inputs first, so generating them does not weigh on the measured cases.
    const png = bigPng();
    const jpg = await photoJpeg();
    // Control: the same watchers for 2 s with nothing to do (their own cost and the machine's noise).
    const idle = await watchHost(() => new Promise((r) => setTimeout(r, 2000)));
    const idleBusyPerMs = idle.busyMs / idle.ms;
    const cases: ImageCaseResult[] = [];
    cases.push(await runCase('png-8000x6000', png, 'image/png', { width: 8000, height: 6000 }, dir, idleBusyPerMs));
    cases.push(await runCase('jpeg-12mp', jpg, 'image/jpeg', { width: 4000, height: 3000 }, dir, idleBusyPerMs));
    return {
      limits: { maxDimension: limits.maxDimension, maxBytes: limits.maxBytes },
      idle: { maxEventLoopDelayMs: r1(idle.maxDelayMs), busyMsPerSecond: r1(idleBusyPerMs * 1000) },
      cases,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function formatImagesBench(r: ImagesBenchResult): string {
  const mb = (n: number) => `${(n / 1048576).toFixed(2)} MB`;
  return r.cases
    .map(
      (c) =>
        `${c.name}: ${c.input.width}x${c.input.height} ${mb(c.input.bytes)} -> ${c.output.width}x${c.output.height} ${c.output.mime} ${mb(c.output.bytes)} ` +
        `in ${c.ms} ms; worker peak heap ${c.workerPeakHeapMb} MB + buffers ${c.workerPeakArrayBuffersMb} MB; process RSS ${c.processRssBeforeMb} -> peak ${c.processPeakRssMb} MB; ` +
        `host event loop busy ${c.hostBusyMs} ms (${c.hostBusyOverIdleMs} ms over idle), max delay ${c.hostMaxEventLoopDelayMs} ms`,
    )
    .concat(`(idle control: event loop busy ${r.idle.busyMsPerSecond} ms/s, max delay ${r.idle.maxEventLoopDelayMs} ms with nothing to do)`)
    .join('\n');
}

if (require.main === module) {
  benchImages().then(
    (r) => console.log(`${formatImagesBench(r)}\n${JSON.stringify(r, null, 2)}`),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
