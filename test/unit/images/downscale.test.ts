import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { locateImageWorker, workerDownscaler } from '../../../extension/core/images/downscale';
import { readImageHeader } from '../../../extension/core/images/header';
import { findDamage } from '../../../extension/core/images/integrity';
import { ImageError, type ImageLimits } from '../../../extension/core/images/limits';
import { AttachmentStore } from '../../../extension/core/images/store';
import { makePng } from '../../fixtures/images/make';

const LIMITS: ImageLimits = { maxFileBytes: 20 * 1024 * 1024, maxDimension: 2048, maxBytes: 5 * 1024 * 1024 };
const SOURCE_DIR = path.resolve(__dirname, '../../../extension/core/images');

describe('images: downscaling in the worker', function () {
  // Decoding 12 MP with jimp takes seconds on a shared machine; these tests assert results, not times.
  this.timeout(180_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-down-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a 4000x3000 PNG photo becomes a 2048x1536 JPEG; the original is kept byte for byte', async () => {
    const png = makePng({ width: 4000, height: 3000, level: 1 });
    const store = new AttachmentStore({ dir: path.join(dir, 'a'), limits: () => LIMITS });
    const ref = await store.addBytes(png, { name: 'photo.png' });
    assert.deepEqual([ref.width, ref.height, ref.mime], [2048, 1536, 'image/jpeg']);
    const sent = fs.readFileSync(store.pathOf(ref.imageId, 'sent')!);
    assert.deepEqual(readImageHeader(sent), { format: 'jpeg', mime: 'image/jpeg', width: 2048, height: 1536, mayHaveAlpha: false });
    assert.equal(findDamage(sent, 'jpeg'), null);
    assert.ok(sent.length <= LIMITS.maxBytes);
    assert.ok(fs.readFileSync(store.pathOf(ref.imageId, 'original')!).equals(png));
    const rec = store.get(ref.imageId)!;
    assert.deepEqual([rec.original.width, rec.original.height, rec.original.mime], [4000, 3000, 'image/png']);
    assert.match(store.dataUrl(ref.imageId)!, /^data:image\/jpeg;base64,\/9j\//);
  });

  it('a PNG with transparency stays PNG, fitted on its long side', async () => {
    const png = makePng({ width: 2100, height: 700, alpha: true, pixel: (x) => [200, 40, 40, x % 2 ? 255 : 90] });
    const out = await workerDownscaler()({ bytes: png, maxDimension: 2048, maxBytes: LIMITS.maxBytes, mayHaveAlpha: true });
    assert.deepEqual([out.mime, out.width, out.height], ['image/png', 2048, 683]);
    assert.deepEqual(readImageHeader(out.bytes)?.width, 2048);
    assert.equal(readImageHeader(out.bytes)?.height, 683);
  });

  it('an image within the pixel limit but over images.maxBytes is re-encoded until it fits', async () => {
    const noisy = makePng({ width: 900, height: 600, noise: 1 });
    assert.ok(noisy.length > 1_000_000);
    const store = new AttachmentStore({ dir: path.join(dir, 'b'), limits: () => ({ ...LIMITS, maxBytes: 120_000 }) });
    const ref = await store.addBytes(noisy, { name: 'noise.png' });
    const sent = fs.readFileSync(store.pathOf(ref.imageId, 'sent')!);
    assert.equal(ref.mime, 'image/jpeg');
    assert.ok(sent.length <= 120_000, `${sent.length} bytes`);
    assert.ok(ref.width <= 900 && Math.abs(ref.width / ref.height - 1.5) < 0.01, `aspect kept: ${ref.width}x${ref.height}`);
  });

  it('never enlarges: a small image over maxBytes keeps its size when re-encoding is enough', async () => {
    const noisy = makePng({ width: 300, height: 200, noise: 1 });
    const out = await workerDownscaler()({ bytes: noisy, maxDimension: 2048, maxBytes: noisy.length - 1, mayHaveAlpha: false });
    assert.deepEqual([out.width, out.height], [300, 200]);
  });

  it('a PNG whose data does not decode is reported as corrupt', async () => {
    const png = makePng({ width: 3000, height: 10 });
    for (let i = 45; i < png.length - 20; i++) png[i] = (i * 7) & 0xff; // garble the compressed data, keep the chunk layout
    const store = new AttachmentStore({ dir: path.join(dir, 'c'), limits: () => LIMITS });
    await assert.rejects(store.addBytes(png, { name: 'garbled.png' }), (e: ImageError) => e.code === 'corrupt' && /^garbled\.png is a corrupt PNG image: it could not be decoded/.test(e.message));
    assert.deepEqual(fs.readdirSync(path.join(dir, 'c')), [], 'a refused image leaves nothing behind');
  });

  it('a worker over its memory bound fails the image, not the host', async () => {
    const png = makePng({ width: 3000, height: 3000, level: 1 });
    const tiny = workerDownscaler({ maxOldGenerationSizeMb: 16 });
    await assert.rejects(tiny({ bytes: png, maxDimension: 512, maxBytes: LIMITS.maxBytes, mayHaveAlpha: false }), (e: ImageError) => e instanceof ImageError && e.code === 'failed' && e.message === 'decoding it needs more memory than the image worker may use');
    const ok = await workerDownscaler()({ bytes: makePng({ width: 600, height: 400 }), maxDimension: 300, maxBytes: LIMITS.maxBytes, mayHaveAlpha: false });
    assert.deepEqual([ok.width, ok.height], [300, 200], 'the next job runs normally');
  });

  it('a cancelled job stops its worker and says so', async () => {
    const ac = new AbortController();
    const job = workerDownscaler()({ bytes: makePng({ width: 2400, height: 1800, level: 1 }), maxDimension: 512, maxBytes: LIMITS.maxBytes, mayHaveAlpha: false }, ac.signal);
    setImmediate(() => ac.abort());
    await assert.rejects(job, (e: ImageError) => e.code === 'cancelled');
  });

  it('the bundled worker (dist/image-worker.js, CommonJS) is found beside the bundle and does the same job', async () => {
    const esbuild = await import('esbuild');
    const out = path.join(dir, 'dist');
    await esbuild.build({ entryPoints: { 'image-worker': path.join(SOURCE_DIR, 'image-worker.ts') }, outdir: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
    const where = locateImageWorker(out);
    assert.deepEqual(where, { code: path.join(out, 'image-worker.js'), eval: false, file: path.join(out, 'image-worker.js') });
    assert.equal(locateImageWorker(SOURCE_DIR).file, path.join(SOURCE_DIR, 'image-worker.ts'), 'from source, the .ts runs through tsx');
    assert.throws(() => locateImageWorker(path.join(dir, 'nowhere')), /the image worker is missing: looked for .*image-worker\.js and .*image-worker\.ts/);
    const res = await workerDownscaler({ workerFile: where.file })({ bytes: makePng({ width: 800, height: 600 }), maxDimension: 400, maxBytes: LIMITS.maxBytes, mayHaveAlpha: false });
    assert.deepEqual([res.mime, res.width, res.height], ['image/jpeg', 400, 300]);
    await assert.rejects(
      workerDownscaler({ workerFile: path.join(dir, 'missing', 'image-worker.js') })({ bytes: makePng({ width: 8, height: 8 }), maxDimension: 4, maxBytes: 1000, mayHaveAlpha: false }),
      (e: ImageError) => e instanceof ImageError && e.code === 'failed' && /image worker/.test(e.message),
    );
  });
});
