import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readImageHeader } from '../../../extension/core/images/header';
import { ImageError, type ImageLimits } from '../../../extension/core/images/limits';
import { AttachmentStore } from '../../../extension/core/images/store';
import type { Downscaler } from '../../../extension/core/images/downscale';
import { makePng, writeSparsePng } from '../../fixtures/images/make';

const LIMITS: ImageLimits = { maxFileBytes: 20 * 1024 * 1024, maxDimension: 2048, maxBytes: 5 * 1024 * 1024 };

/** A downscaler that must not be reached: images within limits, or refused ones, are never decoded. */
const neverDecode: Downscaler = async () => {
  throw new Error('the image was sent to the decoder');
};

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sp-img-'));
}

async function refusal(p: Promise<unknown>): Promise<ImageError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ImageError, `expected an ImageError, got ${(e as Error).message}`);
    return e;
  }
  assert.fail('the image was accepted');
}

describe('images: attachment store', () => {
  let dir: string;
  beforeEach(() => (dir = tmpDir()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps a 300x200 PNG as it is: same bytes on disk and in the data URL, no decoding', async () => {
    const png = makePng({ width: 300, height: 200 });
    const store = new AttachmentStore({ dir, limits: () => LIMITS, downscaler: neverDecode });
    const ref = await store.addBytes(png, { name: 'chart.png', source: 'paste' });
    assert.deepEqual({ ...ref, imageId: 'x' }, { type: 'image', imageId: 'x', name: 'chart.png', mime: 'image/png', width: 300, height: 200 });
    const rec = store.get(ref.imageId)!;
    assert.equal(rec.original.file, rec.sent.file, 'the original is the model-ready copy');
    assert.deepEqual(fs.readFileSync(store.pathOf(ref.imageId, 'original')!), png);
    const url = store.dataUrl(ref.imageId)!;
    assert.ok(url.startsWith('data:image/png;base64,'));
    assert.deepEqual(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'), png);
    assert.equal(rec.source, 'paste');
    assert.equal(rec.original.bytes, png.length);
  });

  it('refuses a 25 MB file before reading or decoding it, naming the file and both sizes', async () => {
    const file = path.join(dir, 'huge scan.png');
    writeSparsePng(file, 25 * 1024 * 1024);
    const store = new AttachmentStore({ dir: path.join(dir, 'store'), limits: () => LIMITS, downscaler: neverDecode });
    const err = await refusal(store.addFile(file));
    assert.equal(err.code, 'too_large');
    assert.equal(err.message, 'huge scan.png is 25.0 MB (26214400 bytes), over the 20.0 MB (20971520 bytes) limit for images (setting images.maxFileBytes)');
    assert.equal(fs.existsSync(path.join(dir, 'store')), false, 'nothing was stored');
  });

  it('refuses oversized bytes and base64 the same way, before decoding the base64', async () => {
    const store = new AttachmentStore({ dir, limits: () => ({ ...LIMITS, maxFileBytes: 1000 }), downscaler: neverDecode });
    assert.match((await refusal(store.addBytes(Buffer.alloc(1001), { name: 'a.png' }))).message, /^a\.png is 1\.0 KB \(1001 bytes\), over the 1\.0 KB \(1000 bytes\) limit/);
    const b64 = Buffer.alloc(3000).toString('base64');
    assert.match((await refusal(store.addBase64(b64, { name: 'mcp.png', mime: 'image/png' }))).message, /^mcp\.png is 2\.9 KB \(3000 bytes\)/);
  });

  it('reports a truncated PNG as corrupt, with the reason', async () => {
    const png = makePng({ width: 64, height: 48 });
    const store = new AttachmentStore({ dir, limits: () => LIMITS, downscaler: neverDecode });
    const err = await refusal(store.addBytes(png.subarray(0, png.length - 30), { name: 'cut.png' }));
    assert.equal(err.code, 'corrupt');
    assert.match(err.message, /^cut\.png is a corrupt or truncated PNG image: the IDAT chunk at byte 33 runs past the end of the file \(\d+ bytes\)$/);
    const headless = await refusal(store.addBytes(png.subarray(0, 20), { name: 'head.png' }));
    assert.equal(headless.code, 'corrupt');
    assert.match(headless.message, /IHDR/);
  });

  it('says plainly when the bytes are not an image, whatever the name or MIME type claims', async () => {
    const store = new AttachmentStore({ dir, limits: () => LIMITS, downscaler: neverDecode });
    const err = await refusal(store.addBytes(Buffer.from('just some text\n'), { name: 'notes.png', mime: 'image/png' }));
    assert.equal(err.code, 'not_image');
    assert.equal(err.message, 'notes.png is not an image Snowpea can attach: its 15 bytes are not PNG, JPEG, GIF or WebP');
    assert.equal((await refusal(store.addFile(path.join(dir, 'nope.png')))).code, 'not_found');
  });

  it('a fresh store on the same folder resolves the ids an earlier one stored', async () => {
    const png = makePng({ width: 40, height: 30 });
    const first = new AttachmentStore({ dir, limits: () => LIMITS, downscaler: neverDecode });
    const ref = await first.addBytes(png, { name: 'a.png' });
    const again = new AttachmentStore({ dir, limits: () => LIMITS, downscaler: neverDecode });
    assert.equal(again.get(ref.imageId)?.name, 'a.png');
    assert.equal(again.resolver(true)(ref), first.dataUrl(ref.imageId));
    assert.equal(again.resolver(false)(ref), null, 'no vision: null, so the request carries the text marker');
  });

  it('stores the same image once, and resolves per call whether the model takes images', async () => {
    const png = makePng({ width: 20, height: 20 });
    const store = new AttachmentStore({ dir, limits: () => LIMITS, downscaler: neverDecode });
    const [a, b] = await Promise.all([store.addBytes(png, { name: 'one.png' }), store.addBytes(png, { name: 'two.png' })]);
    assert.equal(a.imageId, b.imageId);
    assert.equal(b.name, 'two.png', 'each ref keeps the name it was attached under');
    assert.deepEqual(fs.readdirSync(dir).sort(), [`${a.imageId}.png`, 'index.json']);
    let vision = false;
    const resolve = store.resolver(() => vision);
    assert.equal(resolve(a), null);
    vision = true;
    assert.match(resolve(a) as string, /^data:image\/png;base64,/);
  });

  it('keeps the name to one clean line', async () => {
    const store = new AttachmentStore({ dir, limits: () => LIMITS, downscaler: neverDecode });
    const ref = await store.addBytes(makePng({ width: 2, height: 2 }), { name: 'evil\nname\u0007.png' });
    assert.equal(ref.name, 'evil name .png');
  });

  it('sends over-limit images through the downscaler and keeps both files', async () => {
    const png = makePng({ width: 300, height: 100 });
    const small = makePng({ width: 150, height: 50 });
    const jobs: Array<{ maxDimension: number; maxBytes: number; mayHaveAlpha: boolean }> = [];
    const fake: Downscaler = async (job) => {
      jobs.push({ maxDimension: job.maxDimension, maxBytes: job.maxBytes, mayHaveAlpha: job.mayHaveAlpha });
      return { bytes: small, mime: 'image/png', width: 150, height: 50, peakHeapMb: 0, peakArrayBuffersMb: 0 };
    };
    const store = new AttachmentStore({ dir, limits: () => ({ ...LIMITS, maxDimension: 150 }), downscaler: fake });
    const ref = await store.addBytes(png, { name: 'wide.png' });
    assert.deepEqual(jobs, [{ maxDimension: 150, maxBytes: LIMITS.maxBytes, mayHaveAlpha: false }]);
    assert.deepEqual([ref.width, ref.height, ref.mime], [150, 50, 'image/png']);
    const rec = store.get(ref.imageId)!;
    assert.deepEqual(fs.readFileSync(store.pathOf(ref.imageId, 'original')!), png);
    assert.deepEqual(fs.readFileSync(store.pathOf(ref.imageId, 'sent')!), small);
    assert.deepEqual([rec.original.width, rec.original.height, rec.sent.width, rec.sent.height], [300, 100, 150, 50]);
    assert.deepEqual(readImageHeader(fs.readFileSync(store.pathOf(ref.imageId)!))?.width, 150);
  });

  it('refuses an image whose header claims more pixels than may be decoded', async () => {
    const png = makePng({ width: 1, height: 1 });
    png.writeUInt32BE(50_000, 16);
    png.writeUInt32BE(50_000, 20);
    const store = new AttachmentStore({ dir, limits: () => LIMITS, downscaler: neverDecode });
    const err = await refusal(store.addBytes(png, { name: 'bomb.png' }));
    assert.equal(err.code, 'too_large');
    assert.equal(err.message, 'bomb.png is 50000x50000 (2500 megapixels); Snowpea downscales images of up to 100 megapixels');
  });
});
