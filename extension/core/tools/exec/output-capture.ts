import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../os/private-files';

/** Most characters of one run's output saved to its file; the rest is counted but not kept. */
export const MAX_SAVED_CHARS = 50 * 1024 * 1024;

/** Share of the model-visible budget given to the head; the tail (where errors and summaries land) gets the rest. */
const HEAD_SHARE = 0.4;

export interface CapturedOutput {
  /** What the model sees: everything, or head + note + tail. */
  text: string;
  totalChars: number;
  truncated: boolean;
  /** The saved full output (only kept when truncated). */
  fullPath?: string;
  /** The saved file stops at MAX_SAVED_CHARS (a marker line ends it). */
  saveCapped: boolean;
  /** Most characters held in memory at once (head + tail), for tests and diagnostics. */
  peakRetainedChars: number;
}

/**
 * Streams output to a file under the scratch folder while keeping only a bounded head and tail in memory,
 * so a command printing 50 MB costs the model (and the heap) at most `maxChars`.
 */
export class OutputCapture {
  private head = '';
  private tail: string[] = [];
  private tailLen = 0;
  private total = 0;
  private peak = 0;
  private saved = 0;
  private capped = false;
  private readonly headMax: number;
  private readonly tailMax: number;
  private readonly file: fs.WriteStream;
  readonly filePath: string;

  constructor(
    private readonly maxChars: number,
    scratchDir: string,
    label: string,
    private readonly maxSavedChars = MAX_SAVED_CHARS,
  ) {
    this.headMax = Math.floor(maxChars * HEAD_SHARE);
    this.tailMax = maxChars - this.headMax;
    ensurePrivateDir(scratchDir);
    this.filePath = path.join(scratchDir, `${label}-${Date.now()}-${randomBytes(4).toString('hex')}.log`);
    this.file = fs.createWriteStream(this.filePath, { mode: PRIVATE_FILE_MODE });
    this.file.on('error', () => {
      /* a full disk must not crash the tool; the in-memory head/tail still stand */
    });
  }

  /** Adds a chunk; false means the file is behind and the producer should pause until `onDrain`. */
  push(chunk: string): boolean {
    if (!chunk) return true;
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest) {
      this.tail.push(rest);
      this.tailLen += rest.length;
      while (this.tail.length > 1 && this.tailLen - this.tail[0].length >= this.tailMax) this.tailLen -= this.tail.shift()!.length;
      if (this.tailLen > this.tailMax) {
        this.tail[0] = this.tail[0].slice(this.tailLen - this.tailMax);
        this.tailLen = this.tailMax;
      }
    }
    this.peak = Math.max(this.peak, this.head.length + this.tailLen);
    return this.save(chunk);
  }

  /** Writes to the file until MAX_SAVED_CHARS, then one marker line and nothing more. */
  private save(chunk: string): boolean {
    if (this.capped) return true;
    const room = this.maxSavedChars - this.saved;
    if (chunk.length <= room) {
      this.saved += chunk.length;
      return this.file.write(chunk);
    }
    this.capped = true;
    this.file.write(chunk.slice(0, room));
    return this.file.write(`\n[Snowpea saved only the first ${this.maxSavedChars} characters of this output; the rest was not saved]\n`);
  }

  onDrain(cb: () => void): void {
    this.file.once('drain', cb);
  }

  get totalChars(): number {
    return this.total;
  }

  /** Closes the file (deleting it when nothing was cut) and returns what the model sees. */
  async finish(displayPath: (p: string) => string): Promise<CapturedOutput> {
    await new Promise<void>((resolve) => this.file.end(resolve));
    const truncated = this.total > this.maxChars;
    if (!truncated) {
      await fs.promises.rm(this.filePath, { force: true });
      return { text: this.head + this.tail.join(''), totalChars: this.total, truncated, saveCapped: false, peakRetainedChars: this.peak };
    }
    const saveCapped = this.capped;
    const tail = this.tail.join('');
    const omitted = this.total - this.head.length - tail.length;
    const where = saveCapped ? `its first ${this.maxSavedChars} chars are in` : 'full output in';
    const note = `\n[… ${omitted} chars omitted; ${where} ${displayPath(this.filePath)}]\n`;
    return { text: this.head + note + tail, totalChars: this.total, truncated, saveCapped, fullPath: this.filePath, peakRetainedChars: this.peak };
  }
}
