import { MAX_IMAGE_BYTES } from '../../../extension/protocol';

/** What the composer does with images before their bytes travel to the host (docs/design.md, Images). */

/** Larger files are refused before decoding. */
export const MAX_FILE_BYTES = MAX_IMAGE_BYTES;
/** The long side is fitted to this; smaller images are never enlarged. */
export const MAX_SIDE = 2048;
/** An image already within MAX_SIDE and this size travels as it is (if its type is one models take). */
export const MAX_SEND_BYTES = 5 * 1024 * 1024;
export const JPEG_QUALITY = 0.85;
/** Types sent without re-encoding when they are small enough. */
export const PASSTHROUGH_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
