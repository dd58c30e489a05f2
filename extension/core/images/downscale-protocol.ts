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

export type DownscaleReply =
  | {
      ok: true;
      bytes: Uint8Array;
      mime: string;
      width: number;
      height: number;
      /** Largest heap and array-buffer use the worker saw (MB), for the benchmark. */
      peakHeapMb: number;
      peakArrayBuffersMb: number;
    }
  | { ok: false; kind: 'corrupt' | 'failed'; message: string };
