/**
 * What an image file says about itself in its first bytes: the format (by magic number, not by
 * the name or a claimed MIME type), the pixel size and whether it can carry transparency.
 * Read without decoding, so images already within the model's limits are never decoded.
 */

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageHeader {
  format: ImageFormat;
  mime: string;
  width: number;
  height: number;
  /** The format or this file can hold transparency (PNG alpha/tRNS, GIF, WebP with alpha). */
  mayHaveAlpha: boolean;
}

export const MIME_OF: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
export const EXTENSION_OF: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

/** The header is there but unreadable: a corrupt or truncated file of a known format. */
export class HeaderError extends Error {
  constructor(
    readonly format: ImageFormat,
    message: string,
  ) {
    super(message);
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(b: Uint8Array, sig: number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  return sig.every((v, i) => b[at + i] === v);
}

export function ascii(b: Uint8Array, at: number, len: number): string {
  return String.fromCharCode(...b.subarray(at, at + len));
}

const u16be = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const u16le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u24le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8) | (b[o + 2] << 16);
export const u32be = (b: Uint8Array, o: number) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
export const u32le = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;

/** The format by magic number, or null when the bytes are not one of the four the models take. */
export function sniffFormat(b: Uint8Array): ImageFormat | null {
  if (startsWith(b, PNG_SIGNATURE)) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  return null;
}

/**
 * Reads the header. Returns null when the bytes are not a PNG, JPEG, GIF or WebP; throws
 * HeaderError when they start like one but the size cannot be read (truncated, damaged).
 */
export function readImageHeader(b: Uint8Array): ImageHeader | null {
  const format = sniffFormat(b);
  if (!format) return null;
  const dims = format === 'png' ? pngSize(b) : format === 'jpeg' ? jpegSize(b) : format === 'gif' ? gifSize(b) : webpSize(b);
  if (!dims.width || !dims.height) throw new HeaderError(format, `its header gives a size of ${dims.width}x${dims.height}`);
  return { format, mime: MIME_OF[format], ...dims };
}

type Dims = { width: number; height: number; mayHaveAlpha: boolean };

function pngSize(b: Uint8Array): Dims {
  if (b.length < 33 || ascii(b, 12, 4) !== 'IHDR') throw new HeaderError('png', 'the IHDR header chunk is missing');
  const colorType = b[25];
  let mayHaveAlpha = colorType === 4 || colorType === 6;
  // A tRNS chunk before the image data makes palette/grey/RGB images transparent too.
  for (let o = 8; !mayHaveAlpha && o + 8 <= b.length; ) {
    const len = u32be(b, o);
    const type = ascii(b, o + 4, 4);
    if (type === 'tRNS') mayHaveAlpha = true;
    if (type === 'IDAT' || type === 'IEND') break;
    o += 12 + len;
  }
  return { width: u32be(b, 16), height: u32be(b, 20), mayHaveAlpha };
}

/** SOFn markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
function isSof(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(b: Uint8Array): Dims {
  let o = 2;
  while (o + 4 <= b.length) {
    if (b[o] !== 0xff) throw new HeaderError('jpeg', `expected a marker at byte ${o}`);
    const marker = b[o + 1];
    if (marker === 0xff) {
      o++; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      o += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // scan data or end before any frame header
    const len = u16be(b, o + 2);
    if (isSof(marker)) {
      if (o + 9 > b.length) break;
      return { height: u16be(b, o + 5), width: u16be(b, o + 7), mayHaveAlpha: false };
    }
    o += 2 + len;
  }
  throw new HeaderError('jpeg', 'no frame header (SOF) before the image data');
}

function gifSize(b: Uint8Array): Dims {
  if (b.length < 10) throw new HeaderError('gif', 'the logical screen descriptor is missing');
  return { width: u16le(b, 6), height: u16le(b, 8), mayHaveAlpha: true };
}

function webpSize(b: Uint8Array): Dims {
  const chunk = b.length >= 16 ? ascii(b, 12, 4) : '';
  if (chunk === 'VP8 ' && b.length >= 30) {
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff, mayHaveAlpha: false };
  }
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = u32le(b, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, mayHaveAlpha: ((bits >>> 28) & 1) === 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) {
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1, mayHaveAlpha: (b[20] & 0x10) !== 0 };
  }
  throw new HeaderError('webp', chunk ? `unreadable ${chunk.trim()} header` : 'the first chunk is missing');
}
