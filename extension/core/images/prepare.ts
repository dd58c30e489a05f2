/**
 * From bytes to a model-ready image: the format and size from the header, a structural check
 * that the file is whole (inspectImage, cheap), and a downscale in the worker only when the
 * image is over the model's limits (downscaleImage). Images within limits are never decoded.
 */
import type { Downscaler } from './downscale';
import { EXTENSION_OF, HeaderError, readImageHeader, type ImageFormat } from './header';
import { findDamage } from './integrity';
import { formatBytes, ImageError, MAX_DECODE_PIXELS, withinLimits, type ImageLimits } from './limits';

export interface PreparedImage {
  original: { format: ImageFormat; mime: string; ext: string; width: number; height: number };
  /** The downscaled copy; absent when the original goes as it is. */
  sent?: { bytes: Uint8Array; mime: string; ext: string; width: number; height: number };
}

const LABEL: Record<ImageFormat, string> = { png: 'PNG', jpeg: 'JPEG', gif: 'GIF', webp: 'WebP' };

/** What the header and the structure say, and whether the image must be downscaled; throws ImageError for refused images. */
export interface InspectedImage {
  original: PreparedImage['original'];
  mayHaveAlpha: boolean;
  /** Over images.maxDimension or images.maxBytes (and decodable here). */
  needsDownscale: boolean;
  /** `4000x3000, 9.1 MB (...)`, for messages. */
  describe: string;
}

/** The cheap checks, on the main thread and without decoding: format, size, integrity, limits. */
export function inspectImage(bytes: Uint8Array, name: string, limits: ImageLimits): InspectedImage {
  let header;
  try {
    header = readImageHeader(bytes);
  } catch (e) {
    if (e instanceof HeaderError) throw new ImageError('corrupt', `${name} is a corrupt or truncated ${LABEL[e.format]} image: ${e.message}`);
    throw e;
  }
  if (!header) {
    throw new ImageError('not_image', `${name} is not an image Snowpea can attach: its ${bytes.length} bytes are not PNG, JPEG, GIF or WebP`);
  }
  const damage = findDamage(bytes, header.format);
  if (damage) throw new ImageError('corrupt', `${name} is a corrupt or truncated ${LABEL[header.format]} image: ${damage}`);
  const original = { format: header.format, mime: header.mime, ext: EXTENSION_OF[header.format], width: header.width, height: header.height };
  const describe = `${header.width}x${header.height}, ${formatBytes(bytes.length)}`;
  const inspected = { original, mayHaveAlpha: header.mayHaveAlpha, describe };
  if (withinLimits(header.width, header.height, bytes.length, limits)) return { ...inspected, needsDownscale: false };

  if (header.width * header.height > MAX_DECODE_PIXELS) {
    const mp = ((header.width * header.height) / 1e6).toFixed(0);
    throw new ImageError('too_large', `${name} is ${header.width}x${header.height} (${mp} megapixels); Snowpea downscales images of up to ${MAX_DECODE_PIXELS / 1e6} megapixels`);
  }
  if (header.format === 'webp') {
    throw new ImageError(
      'unsupported',
      `${name} is a WebP image (${describe}) larger than the model takes (${limits.maxDimension} px on the long side, ${formatBytes(limits.maxBytes)}), and WebP images cannot be downscaled here; convert it to PNG or JPEG`,
    );
  }
  return { ...inspected, needsDownscale: true };
}

/**
 * The model-ready copy of an inspected image, made in the worker. `source` is the stored
 * original's path (the worker reads it, so the host copies no pixels) or the bytes themselves.
 */
export async function downscaleImage(img: InspectedImage, source: { file: string } | { bytes: Uint8Array }, name: string, limits: ImageLimits, downscale: Downscaler, signal?: AbortSignal): Promise<NonNullable<PreparedImage['sent']>> {
  let out;
  try {
    out = await downscale({ ...source, maxDimension: limits.maxDimension, maxBytes: limits.maxBytes, mayHaveAlpha: img.mayHaveAlpha }, signal);
  } catch (e) {
    if (!(e instanceof ImageError)) throw e;
    if (e.code === 'corrupt') throw new ImageError('corrupt', `${name} is a corrupt ${LABEL[img.original.format]} image: ${e.message}`);
    if (e.code === 'cancelled') throw e;
    throw new ImageError(e.code, `${name} (${img.describe}) could not be downscaled: ${e.message}`);
  }
  const ext = out.mime === 'image/png' ? 'png' : 'jpg';
  return { bytes: out.bytes, mime: out.mime, ext, width: out.width, height: out.height };
}
