/**
 * What an image file says about itself in its first bytes: the format (by magic number, not by
 * the name or a claimed MIME type), the pixel size and whether it can carry transparency.
 * Read without decoding, so images already within the model's limits are never decoded.
 */
import { imageSize } from 'image-size';

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

/** What is wrong when image-size cannot read the size of a file that starts like this format. */
const UNREADABLE: Record<ImageFormat, string> = {
  png: 'the IHDR header chunk is missing or cut off',
  jpeg: 'no readable frame header (SOF) before the image data',
  gif: 'the logical screen descriptor is missing',
  webp: 'no readable VP8, VP8L or VP8X header',
};

/** image-size's name for each format. */
const SIZE_TYPE: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

/**
 * Reads the header (the size through image-size, from the bytes given). Returns null when the
 * bytes are not a PNG, JPEG, GIF or WebP; throws HeaderError when they start like one but the size
 * cannot be read (truncated, damaged).
 */
export function readImageHeader(b: Uint8Array): ImageHeader | null {
  const format = sniffFormat(b);
  if (!format) return null;
  // image-size reads through a DataView over the whole underlying buffer: a view into a larger
  // buffer (a Buffer from the pool, a subarray) is copied so a cut-off file cannot read past its end.
  const exact = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
  let size;
  try {
    size = imageSize(exact);
  } catch (e) {
    // Its own TypeErrors name the problem; a RangeError only says a read ran past the end.
    throw new HeaderError(format, e instanceof RangeError ? UNREADABLE[format] : `${UNREADABLE[format]} (${(e as Error).message})`);
  }
  if (size.type !== SIZE_TYPE[format]) throw new HeaderError(format, UNREADABLE[format]);
  const { width, height } = size;
  if (!width || !height) throw new HeaderError(format, `its header gives a size of ${width}x${height}`);
  return { format, mime: MIME_OF[format], width, height, mayHaveAlpha: mayHaveAlpha(b, format) };
}

/** Whether the format or this file can hold transparency: PNG alpha colour types or a tRNS chunk, GIF, WebP's alpha flag. */
function mayHaveAlpha(b: Uint8Array, format: ImageFormat): boolean {
  if (format === 'gif') return true;
  if (format === 'jpeg') return false;
  if (format === 'webp') {
    const chunk = ascii(b, 12, 4);
    return (chunk === 'VP8X' && (b[20] & 0x10) !== 0) || (chunk === 'VP8L' && ((u32le(b, 21) >>> 28) & 1) === 1);
  }
  if (b[25] === 4 || b[25] === 6) return true;
  // A tRNS chunk before the image data makes palette/grey/RGB images transparent too.
  for (let o = 8; o + 8 <= b.length; o += 12 + u32be(b, o)) {
    const type = ascii(b, o + 4, 4);
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') break;
  }
  return false;
}
