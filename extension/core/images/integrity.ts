/**
 * A structural check that an image file is whole, without decoding its pixels: the chunk,
 * segment or block layout is walked to its end marker. It catches truncated downloads and
 * cut-off pastes for images that skip decoding because they are already within limits.
 */
import { ascii, u32be, u32le, type ImageFormat } from './header';

const EOI = Buffer.from([0xff, 0xd9]);

/** Why the file is not whole, or null when its structure is complete. */
export function findDamage(b: Uint8Array, format: ImageFormat): string | null {
  switch (format) {
    case 'png':
      return pngDamage(b);
    case 'jpeg':
      return jpegDamage(b);
    case 'gif':
      return gifDamage(b);
    case 'webp':
      return webpDamage(b);
  }
}

function pngDamage(b: Uint8Array): string | null {
  let o = 8;
  let sawData = false;
  while (o + 12 <= b.length) {
    const len = u32be(b, o);
    const type = ascii(b, o + 4, 4);
    if (!/^[A-Za-z]{4}$/.test(type)) return `bad chunk type at byte ${o}`;
    if (o + 12 + len > b.length) return `the ${type} chunk at byte ${o} runs past the end of the file (${b.length} bytes)`;
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return sawData ? null : 'it has no image data (IDAT)';
    o += 12 + len;
  }
  return `it ends after ${b.length} bytes without an IEND chunk`;
}

function jpegDamage(b: Uint8Array): string | null {
  let o = 2;
  while (o + 4 <= b.length) {
    if (b[o] !== 0xff) return `expected a marker at byte ${o}`;
    const marker = b[o + 1];
    if (marker === 0xff) {
      o++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      o += 2;
      continue;
    }
    if (marker === 0xd9) return 'it ends before any image data';
    const len = (b[o + 2] << 8) | b[o + 3];
    if (o + 2 + len > b.length) return `a segment at byte ${o} runs past the end of the file (${b.length} bytes)`;
    if (marker === 0xda) {
      // In entropy-coded data 0xFF is always followed by 0x00 or a restart marker, so FFD9 is the end.
      const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
      return buf.indexOf(EOI, o + 2 + len) >= 0 ? null : `it ends after ${b.length} bytes without an end-of-image marker`;
    }
    o += 2 + len;
  }
  return `it ends after ${b.length} bytes before the image data`;
}

function skipSubBlocks(b: Uint8Array, o: number): number {
  while (o < b.length) {
    const size = b[o];
    o += 1 + size;
    if (size === 0) return o;
  }
  return -1;
}

function gifDamage(b: Uint8Array): string | null {
  if (b.length < 13) return 'the logical screen descriptor is cut off';
  let o = 13;
  if (b[10] & 0x80) o += 3 * (1 << ((b[10] & 0x07) + 1));
  let frames = 0;
  while (o < b.length) {
    const kind = b[o];
    if (kind === 0x3b) return frames ? null : 'it has no image frame';
    if (kind === 0x21) o = skipSubBlocks(b, o + 2);
    else if (kind === 0x2c) {
      if (o + 10 > b.length) break;
      const flags = b[o + 9];
      o += 10;
      if (flags & 0x80) o += 3 * (1 << ((flags & 0x07) + 1));
      o = skipSubBlocks(b, o + 1); // after the LZW minimum code size
      frames++;
    } else return `unexpected block 0x${kind.toString(16)} at byte ${o}`;
    if (o < 0) break;
  }
  return `it ends after ${b.length} bytes without the GIF trailer`;
}

function webpDamage(b: Uint8Array): string | null {
  const riffEnd = 8 + u32le(b, 4);
  if (riffEnd > b.length) return `its RIFF header announces ${riffEnd} bytes but the file has ${b.length}`;
  let o = 12;
  while (o + 8 <= riffEnd) {
    const size = u32le(b, o + 4);
    const next = o + 8 + size + (size & 1);
    if (o + 8 + size > riffEnd) return `the ${ascii(b, o, 4).trim()} chunk at byte ${o} runs past the end`;
    o = next;
  }
  return null;
}
