import type { OutgoingImage } from '../../../extension/protocol';
import { blobToBase64, drawScaled, encodeCanvas, hasTransparency } from './canvas';
import { fitWithin } from './fit';
import { formatBytes } from './format';
import { JPEG_QUALITY, MAX_FILE_BYTES, MAX_SEND_BYTES, MAX_SIDE, PASSTHROUGH_TYPES } from './limits';

export type PreparedImage =
  | { ok: true; image: OutgoingImage; original?: { width: number; height: number } }
  | { ok: false; error: string };

/** Re-encodes at most this many times, shrinking, to get under MAX_SEND_BYTES. */
const ENCODE_ATTEMPTS = 4;
/** Source types that cannot hold transparency: they always become JPEG when re-encoded. */
const OPAQUE_TYPES = new Set(['image/jpeg', 'image/bmp']);

const extensions: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** `shot.bmp` re-encoded as PNG is sent as `shot.png`. */
function renamed(name: string, mime: string): string {
  const ext = extensions[mime];
  if (!ext) return name;
  const base = name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return `${base || 'image'}.${ext}`;
}

async function decode(file: File): Promise<ImageBitmap | null> {
  try {
    return await createImageBitmap(file);
  } catch {
    return null;
  }
}

/** The refusal of an image over the 20 MB cap, as its thumbnail shows it. */
export function tooLargeError(name: string, size: number): string {
  return `${name} is ${formatBytes(size)}, over the ${formatBytes(MAX_FILE_BYTES)} limit for images.`;
}

/**
 * Makes a picked, pasted or dropped file ready to send: refuses files over 20 MB before
 * decoding them, decodes with the browser, fits the long side to 2048 px, and re-encodes
 * (PNG when the picture has transparency, else JPEG) only when it is too large or of a type
 * models do not take; otherwise the original bytes travel.
 */
export async function prepareImage(file: File): Promise<PreparedImage> {
  const name = file.name || 'image';
  if (file.size > MAX_FILE_BYTES) return { ok: false, error: tooLargeError(name, file.size) };
  if (file.type && !file.type.startsWith('image/')) return { ok: false, error: `${name} is not an image (${file.type}).` };
  const bitmap = await decode(file);
  if (!bitmap) return { ok: false, error: `${name} is not an image this view can decode.` };
  try {
    const { width, height } = bitmap;
    if (Math.max(width, height) <= MAX_SIDE && file.size <= MAX_SEND_BYTES && PASSTHROUGH_TYPES.has(file.type)) {
      return { ok: true, image: { name, mime: file.type, dataBase64: await blobToBase64(file), width, height } };
    }
    const image = await reencode(bitmap, name, !OPAQUE_TYPES.has(file.type));
    const resized = image.width !== width || image.height !== height;
    return { ok: true, image, ...(resized ? { original: { width, height } } : {}) };
  } catch (e) {
    return { ok: false, error: `${name} could not be prepared: ${(e as Error).message}` };
  } finally {
    bitmap.close();
  }
}

async function reencode(bitmap: ImageBitmap, name: string, mayHaveAlpha: boolean): Promise<OutgoingImage> {
  let size = fitWithin(bitmap.width, bitmap.height, MAX_SIDE);
  let transparent: boolean | undefined;
  for (let attempt = 1; ; attempt++) {
    const canvas = drawScaled(bitmap, size.width, size.height);
    transparent ??= mayHaveAlpha && hasTransparency(canvas);
    const mime = transparent ? 'image/png' : 'image/jpeg';
    const blob = await encodeCanvas(canvas, mime, transparent ? undefined : JPEG_QUALITY);
    if (blob.size <= MAX_SEND_BYTES || attempt >= ENCODE_ATTEMPTS) {
      return { name: renamed(name, mime), mime, dataBase64: await blobToBase64(blob), ...size };
    }
    // Still too many bytes (a large picture with transparency): shrink by the excess and try again.
    const shrink = Math.sqrt(MAX_SEND_BYTES / blob.size) * 0.9;
    size = fitWithin(size.width, size.height, Math.floor(Math.max(size.width, size.height) * shrink));
  }
}
