/**
 * Decoding, resizing and re-encoding with jimp. Only the image worker imports this: decoding a
 * large image takes seconds and up to a gigabyte, which must never happen on the host's thread.
 */
import * as fs from 'node:fs';
import { Jimp } from 'jimp';
import type { DownscaleJob, DownscaleReply } from './downscale-protocol';
import { fitWithin, MAX_DECODE_PIXELS } from './limits';

const JPEG_QUALITIES = [85, 70, 55];
const MAX_ATTEMPTS = 12;

type Image = Awaited<ReturnType<typeof Jimp.fromBuffer>>;

/** Tracks the largest heap and array-buffer use seen, for the benchmark. */
export class MemoryPeak {
  heapMb = 0;
  arrayBuffersMb = 0;
  sample(): void {
    const m = process.memoryUsage();
    this.heapMb = Math.max(this.heapMb, m.heapUsed / 1048576);
    this.arrayBuffersMb = Math.max(this.arrayBuffersMb, m.arrayBuffers / 1048576);
  }
}

/**
 * Fits the image inside the job's limits: the long side to maxDimension (aspect kept, never
 * enlarged), transparent images as PNG and the rest as JPEG, shrinking further until the bytes
 * fit maxBytes.
 */
export async function reencode(job: DownscaleJob, peak = new MemoryPeak()): Promise<DownscaleReply> {
  let img: Image;
  try {
    const buf = job.bytes ? Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength) : await fs.promises.readFile(job.file!);
    // jpeg-js refuses over 512 MB by default; the pixel cap (MAX_DECODE_PIXELS) is checked before this.
    img = await Jimp.fromBuffer(buf, { 'image/jpeg': { maxMemoryUsageInMB: 2048, maxResolutionInMP: MAX_DECODE_PIXELS / 1e6 } });
  } catch (e) {
    const msg = (e as Error).message;
    if (/limit exceeded/.test(msg)) return { ok: false, kind: 'failed', message: `decoding it needs more memory than allowed (${msg})` };
    return { ok: false, kind: 'corrupt', message: `it could not be decoded (${msg})` };
  }
  peak.sample();
  let { width, height } = fitWithin(img.bitmap.width, img.bitmap.height, job.maxDimension);
  if (width !== img.bitmap.width || height !== img.bitmap.height) img.resize({ w: width, h: height });
  peak.sample();
  const alpha = job.mayHaveAlpha && img.hasAlpha();
  let q = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const mime = alpha ? 'image/png' : 'image/jpeg';
    const out = alpha ? await img.getBuffer('image/png') : await img.getBuffer('image/jpeg', { quality: JPEG_QUALITIES[q] });
    peak.sample();
    if (out.length <= job.maxBytes) {
      // A fresh, exactly sized buffer: jimp's may be a slice of a pool, which cannot be transferred.
      return { ok: true, bytes: new Uint8Array(out), mime, width, height, peakHeapMb: peak.heapMb, peakArrayBuffersMb: peak.arrayBuffersMb };
    }
    if (!alpha && q < JPEG_QUALITIES.length - 1) {
      q++;
      continue;
    }
    const scale = Math.min(0.9, Math.max(0.5, Math.sqrt(job.maxBytes / out.length) * 0.95));
    width = Math.max(1, Math.round(width * scale));
    height = Math.max(1, Math.round(height * scale));
    img.resize({ w: width, h: height });
  }
  return { ok: false, kind: 'failed', message: `it could not be brought under ${job.maxBytes} bytes` };
}
