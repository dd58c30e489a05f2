/** The messages between the host and the image worker (types only: no jimp here). */

export interface DownscaleJob {
  /** The image: a file the worker reads (no copy on the host's thread), or the bytes themselves (copied into the worker). */
  file?: string;
  bytes?: Uint8Array;
  maxDimension: number;
  maxBytes: number;
  /** The header says the image can carry transparency; only then are pixels checked for it. */
  mayHaveAlpha: boolean;
}

/** A downscaled image: the bytes sent to the model, and what the worker used (MB, for the benchmark). */
export interface DownscaleResult {
  bytes: Uint8Array;
  mime: string;
  width: number;
  height: number;
  peakHeapMb: number;
  peakArrayBuffersMb: number;
}

export type DownscaleReply =
  | ({ ok: true } & DownscaleResult)
  | { ok: false; kind: 'corrupt' | 'failed'; message: string };
