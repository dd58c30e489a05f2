/**
 * The limits an image is held to (settings images.maxFileBytes, images.maxDimension,
 * images.maxBytes), the arithmetic of fitting one inside them, and the store's error type.
 */
import type { Settings } from '../settings/schema';

export interface ImageLimits {
  /** Largest file accepted at all; checked before anything is read or decoded. */
  maxFileBytes: number;
  /** Longest side, in pixels, of the copy sent to the model. */
  maxDimension: number;
  /** Largest copy sent to the model, in bytes. */
  maxBytes: number;
}

/**
 * Largest image decoded to downscale it (pixels). A 20 MB PNG can claim 50000x50000; decoding
 * that would need 10 GB. 8000x6000 (48 MP) takes about 480 MB of pixel buffers in the worker,
 * so this cap keeps a decode near a gigabyte at most.
 */
export const MAX_DECODE_PIXELS = 100_000_000;

export function limitsFromSettings(s: Pick<Settings, 'images.maxFileBytes' | 'images.maxDimension' | 'images.maxBytes'>): ImageLimits {
  return { maxFileBytes: s['images.maxFileBytes'], maxDimension: s['images.maxDimension'], maxBytes: s['images.maxBytes'] };
}

export type ImageErrorCode = 'too_large' | 'not_image' | 'corrupt' | 'unsupported' | 'not_found' | 'failed' | 'cancelled';

/** Why an image was refused; the message names the file and is meant for the user and the model alike. */
export class ImageError extends Error {
  constructor(
    readonly code: ImageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ImageError';
  }
}

/** `1.5 MB (1572864 bytes)`: both forms, so a limit and a size can be compared at a glance. */
export function formatBytes(n: number): string {
  const mb = n / (1024 * 1024);
  const short = mb >= 1 ? `${mb.toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`;
  return `${short} (${n} bytes)`;
}

/** The size that fits inside maxDimension keeping the aspect ratio; never larger than the original. */
export function fitWithin(width: number, height: number, maxDimension: number): { width: number; height: number } {
  const scale = Math.min(1, maxDimension / Math.max(width, height));
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** True when the bytes as they are can go to the model. */
export function withinLimits(width: number, height: number, bytes: number, limits: ImageLimits): boolean {
  return Math.max(width, height) <= limits.maxDimension && bytes <= limits.maxBytes;
}
