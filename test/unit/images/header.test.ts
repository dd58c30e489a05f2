import assert from 'node:assert/strict';
import { HeaderError, readImageHeader, sniffFormat } from '../../../extension/core/images/header';
import { findDamage } from '../../../extension/core/images/integrity';
import { makeGif, makeJpeg, makePng } from '../../fixtures/images/make';

function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WEBP'), ...chunks]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

function webpChunk(type: string, data: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h.write(type, 0, 'ascii');
  h.writeUInt32LE(data.length, 4);
  return Buffer.concat([h, data, data.length & 1 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

describe('images: headers and integrity, without decoding', () => {
  it('reads PNG size and transparency (alpha colour type or a tRNS chunk)', () => {
    assert.deepEqual(readImageHeader(makePng({ width: 300, height: 200 })), { format: 'png', mime: 'image/png', width: 300, height: 200, mayHaveAlpha: false });
    assert.equal(readImageHeader(makePng({ width: 3, height: 2, alpha: true }))?.mayHaveAlpha, true);
    const rgb = makePng({ width: 3, height: 2 });
    const trns = Buffer.from([0, 0, 0, 6, 0x74, 0x52, 0x4e, 0x53, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const withTrns = Buffer.concat([rgb.subarray(0, 33), trns, rgb.subarray(33)]);
    assert.equal(readImageHeader(withTrns)?.mayHaveAlpha, true);
  });

  it('reads JPEG and GIF sizes, and finds the end of a whole file', async () => {
    const jpg = await makeJpeg(120, 80);
    assert.deepEqual(readImageHeader(jpg), { format: 'jpeg', mime: 'image/jpeg', width: 120, height: 80, mayHaveAlpha: false });
    assert.equal(findDamage(jpg, 'jpeg'), null);
    assert.match(findDamage(jpg.subarray(0, Math.floor(jpg.length * 0.7)), 'jpeg')!, /without an end-of-image marker/);
    const gif = await makeGif(40, 30);
    assert.deepEqual(readImageHeader(gif), { format: 'gif', mime: 'image/gif', width: 40, height: 30, mayHaveAlpha: true });
    assert.equal(findDamage(gif, 'gif'), null);
    assert.match(findDamage(gif.subarray(0, gif.length - 5), 'gif')!, /without the GIF trailer/);
  });

  it('reads WebP sizes from VP8X and VP8L headers and checks the RIFF length', () => {
    const vp8x = Buffer.alloc(10);
    vp8x[0] = 0x10; // alpha
    vp8x.writeUIntLE(999, 4, 3);
    vp8x.writeUIntLE(499, 7, 3);
    const a = riff([webpChunk('VP8X', vp8x)]);
    assert.deepEqual(readImageHeader(a), { format: 'webp', mime: 'image/webp', width: 1000, height: 500, mayHaveAlpha: true });
    assert.equal(findDamage(a, 'webp'), null);
    const vp8l = Buffer.alloc(5);
    vp8l[0] = 0x2f;
    vp8l.writeUInt32LE((299 | (199 << 14)) >>> 0, 1);
    const b = riff([webpChunk('VP8L', vp8l)]);
    assert.deepEqual(readImageHeader(b), { format: 'webp', mime: 'image/webp', width: 300, height: 200, mayHaveAlpha: false });
    assert.match(findDamage(b.subarray(0, b.length - 2), 'webp')!, /RIFF header announces/);
  });

  it('a PNG is whole only up to its IEND chunk', () => {
    const png = makePng({ width: 50, height: 50 });
    assert.equal(findDamage(png, 'png'), null);
    assert.equal(findDamage(png.subarray(0, png.length - 12), 'png'), `it ends after ${png.length - 12} bytes without an IEND chunk`);
  });

  it('issue 21 (image-size): a file that starts like an image but whose size cannot be read (cut off inside a larger buffer, too) throws HeaderError naming the part', async () => {
    const fails = (b: Uint8Array, format: string, message: RegExp) =>
      assert.throws(() => readImageHeader(b), (e: unknown) => e instanceof HeaderError && e.format === format && message.test(e.message));
    const png = makePng({ width: 30, height: 20 });
    fails(png.subarray(0, 20), 'png', /^the IHDR header chunk is missing or cut off$/);
    const noIhdr = Buffer.from(png);
    noIhdr.write('IDAT', 12, 'ascii');
    fails(noIhdr, 'png', /^the IHDR header chunk is missing or cut off \(Invalid PNG\)$/);
    const jpg = await makeJpeg(12, 8);
    fails(jpg.subarray(0, 30), 'jpeg', /^no readable frame header \(SOF\) before the image data/);
    fails(Buffer.from('GIF89a\x01'), 'gif', /^the logical screen descriptor is missing$/);
    fails(riff([webpChunk('ALPH', Buffer.alloc(10))]), 'webp', /^no readable VP8, VP8L or VP8X header/);
    fails(riff([webpChunk('VP8X', Buffer.alloc(4))]), 'webp', /^no readable VP8, VP8L or VP8X header/);
    const zero = Buffer.from(png);
    zero.writeUInt32BE(0, 16);
    fails(zero, 'png', /^its header gives a size of 0x20$/);
  });

  it('anything else is not an image', () => {
    for (const b of [Buffer.from('hello'), Buffer.from('%PDF-1.7\n'), Buffer.alloc(0), Buffer.from([0x42, 0x4d, 0, 0])]) {
      assert.equal(sniffFormat(b), null);
      assert.equal(readImageHeader(b), null);
    }
  });
});
