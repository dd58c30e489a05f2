/**
 * index.json beside the stored images: what each image id stands for, so a resumed session,
 * an export or a fresh process resolves the ids of its transcript. Written atomically
 * (temporary file, then rename), merged with what is on disk so two processes sharing the
 * folder do not drop each other's entries.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface StoredFile {
  /** File name inside the store's folder. */
  file: string;
  mime: string;
  bytes: number;
  width: number;
  height: number;
}

export interface StoredImage {
  id: string;
  /** The name it was first attached under. */
  name: string;
  /** Where it came from: paste, drop, picker, file (@path, view_image, --attach), mcp, screenshot. */
  source: string;
  created: number;
  sha256: string;
  original: StoredFile;
  /** The copy the model gets; the same file as the original when that was already within limits. */
  sent: StoredFile;
}

interface IndexFile {
  version: 1;
  images: Record<string, StoredImage>;
}

export const INDEX_NAME = 'index.json';

export class AttachmentIndex {
  private entries = new Map<string, StoredImage>();
  private loadedMtime = -1;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly dir: string) {}

  private get file(): string {
    return path.join(this.dir, INDEX_NAME);
  }

  /** Reads index.json when it changed since the last read (a missing or unreadable file counts as empty). */
  private refresh(): void {
    let mtime: number;
    try {
      mtime = fs.statSync(this.file).mtimeMs;
    } catch {
      return;
    }
    if (mtime === this.loadedMtime) return;
    for (const rec of Object.values(readIndex(this.file))) this.entries.set(rec.id, rec);
    this.loadedMtime = mtime;
  }

  get(id: string): StoredImage | undefined {
    const hit = this.entries.get(id);
    if (hit) return hit;
    this.refresh();
    return this.entries.get(id);
  }

  all(): StoredImage[] {
    this.refresh();
    return [...this.entries.values()];
  }

  /** Records an image and writes the index; writes are serialized. */
  put(rec: StoredImage): Promise<void> {
    this.entries.set(rec.id, rec);
    const next = this.writing.then(() => this.write());
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async write(): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const merged: IndexFile = { version: 1, images: { ...readIndex(this.file) } };
    for (const rec of this.entries.values()) merged.images[rec.id] = rec;
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    await fs.promises.writeFile(tmp, JSON.stringify(merged, null, 1));
    await fs.promises.rename(tmp, this.file);
    for (const rec of Object.values(merged.images)) this.entries.set(rec.id, rec);
    this.loadedMtime = (await fs.promises.stat(this.file)).mtimeMs;
  }
}

function readIndex(file: string): Record<string, StoredImage> {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<IndexFile>;
    return parsed && typeof parsed.images === 'object' && parsed.images ? parsed.images : {};
  } catch {
    return {};
  }
}
