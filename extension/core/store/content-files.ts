/**
 * Large message contents live as files beside state.db (`state.db.content/<sha256>`), holding the
 * content's exact UTF-8 bytes, while the row keeps the rest of the message. This keeps sql.js's
 * in-memory database (and so its memory and the cost of export()) to metadata and small messages.
 *
 * A file is written off the event loop by the commit that makes its message durable (temporary
 * name, then rename: a file under its final name is always whole) and fdatasync'ed before the
 * journal line that refers to it, so a committed message never points at a missing file; until
 * then its bytes stay in memory and reads answer from them. Identical contents share one file.
 * Files no row refers to (a deleted session, a round that was never committed) are removed at open.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { checkWriteFault } from './files';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../os/private-files';

/** Contents at least this large (UTF-8 bytes) go to a file. */
export const EXTERNAL_CONTENT_BYTES = 8 * 1024;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether `text` has an exact UTF-8 form. A lone surrogate has none (encoding would replace it),
 * so such a content stays in the row, where JSON escapes it.
 */
export function encodesExactly(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

export interface ContentRef {
  sha256: string;
  bytes: number;
}

const open = promisify(fs.open);
const fdatasync = promisify(fs.fdatasync);
const close = promisify(fs.close);

async function syncPath(p: string, flags: string): Promise<void> {
  let fd: number;
  try {
    fd = await open(p, flags);
  } catch (e) {
    if (flags === 'r' && process.platform === 'win32') return; // folders cannot be opened there
    throw e;
  }
  try {
    await fdatasync(fd);
  } finally {
    await close(fd);
  }
}

export class ContentFiles {
  readonly dir: string;
  /** Files written since the last commit, to be made durable before it. */
  private unsynced = new Set<string>();
  /** Files written since the last fold, made durable (again) before its snapshot replaces state.db. */
  private sinceFold = new Set<string>();
  /** Contents put whose file is not written yet, by file path. */
  private readonly pending = new Map<string, Buffer>();
  /** Writes running, so a commit and a fold asking for the same file share one. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(dbFile: string) {
    this.dir = `${dbFile}.content`;
  }

  private pathOf(sha256: string): string {
    return path.join(this.dir, sha256);
  }

  /** Stores `bytes` (once per distinct content; the file is written by the next commit) and returns the reference the row keeps. */
  put(bytes: Buffer): ContentRef {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = this.pathOf(sha256);
    if (!this.pending.has(file) && !fs.existsSync(file)) {
      this.pending.set(file, bytes);
      this.unsynced.add(file);
      this.sinceFold.add(file);
    }
    return { sha256, bytes: bytes.length };
  }

  /** The content, or null when its file is missing or not the recorded size. */
  read(ref: ContentRef): string | null {
    const pending = this.pending.get(this.pathOf(ref.sha256));
    if (pending) return pending.length === ref.bytes ? pending.toString('utf8') : null;
    try {
      const buf = fs.readFileSync(this.pathOf(ref.sha256));
      return buf.length === ref.bytes ? buf.toString('utf8') : null;
    } catch {
      return null;
    }
  }

  /** The content can be read: it is pending, or its file is there with the recorded size. */
  holds(ref: ContentRef): boolean {
    if (this.pending.has(this.pathOf(ref.sha256))) return true;
    return fs.statSync(this.pathOf(ref.sha256), { throwIfNoEntry: false })?.size === ref.bytes;
  }

  where(ref: ContentRef): string {
    return this.pathOf(ref.sha256);
  }

  /**
   * Takes the files written since the last call and returns a job that makes them (and their
   * names in the folder) durable; null when there are none.
   */
  takeUnsynced(): (() => Promise<void>) | null {
    if (!this.unsynced.size) return null;
    const files = [...this.unsynced];
    this.unsynced.clear();
    return () => this.sync(files);
  }

  /** The same for a fold: the files written since the last fold; `putBack` when the fold failed. */
  takeForFold(): { sync(): Promise<void>; putBack(): void } {
    const files = [...this.sinceFold];
    this.sinceFold.clear();
    return { sync: () => this.sync(files), putBack: () => files.forEach((f) => this.sinceFold.add(f)) };
  }

  private async sync(files: string[]): Promise<void> {
    if (!files.length) return;
    await Promise.all(files.map((f) => this.write(f)));
    await Promise.all(files.map((f) => syncPath(f, 'r+')));
    await syncPath(this.dir, 'r');
  }

  /** Writes a pending file under its final name; done when it is not pending. A failed write stays pending. */
  private write(file: string): Promise<void> {
    const bytes = this.pending.get(file);
    if (!bytes) return Promise.resolve();
    let running = this.writing.get(file);
    if (!running) {
      running = (async () => {
        await fs.promises.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
        const tmp = `${file}.tmp-${process.pid}`;
        try {
          await fs.promises.writeFile(tmp, bytes, { mode: PRIVATE_FILE_MODE });
          checkWriteFault(file);
          await fs.promises.rename(tmp, file);
        } catch (e) {
          await fs.promises.rm(tmp, { force: true });
          throw e;
        }
        this.pending.delete(file);
      })().finally(() => this.writing.delete(file));
      this.writing.set(file, running);
    }
    return running;
  }

  /** Removes files that no row refers to, and leftover temporaries. Returns how many went. */
  removeUnreferenced(referenced: Set<string>): number {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const n of names) {
      if (referenced.has(n)) continue;
      try {
        fs.rmSync(path.join(this.dir, n), { force: true });
        removed++;
      } catch {
        // in use elsewhere (Windows); next time
      }
    }
    return removed;
  }
}
