/**
 * index.json beside the stored images: what each image id stands for, so a resumed session,
 * an export or a fresh process resolves the ids of its transcript, and which sessions hold each
 * image, so deleting a session deletes only the files no other session shows. Written
 * atomically (temporary file, then rename); every change is applied to the file as it is on
 * disk at that moment, so processes sharing the folder do not drop each other's entries.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';

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
  /**
   * Ids of the sessions whose transcript holds the image (session ids are UUIDs, unique across
   * state.db files). Absent on images stored before references were kept: those are never deleted.
   */
  sessions?: string[];
}

const storedFileSchema = z.object({ file: z.string().min(1), mime: z.string(), bytes: z.number(), width: z.number(), height: z.number() });

/** One entry as read from disk; unknown fields are kept, a malformed entry is skipped. */
const storedImageSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  source: z.string(),
  created: z.number(),
  sha256: z.string(),
  original: storedFileSchema,
  sent: storedFileSchema,
  sessions: z.array(z.string()).optional(),
});

interface IndexFile {
  version: 1;
  images: Record<string, StoredImage>;
}

type Images = Map<string, StoredImage>;

export const INDEX_NAME = 'index.json';

export class AttachmentIndex {
  private entries: Images = new Map();
  /** Ids put by this process and not yet in a written index.json. */
  private readonly unwritten = new Set<string>();
  private loadedMtime = -1;
  private writing: Promise<unknown> = Promise.resolve();

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
    for (const rec of readIndex(this.file)?.values() ?? []) this.entries.set(rec.id, rec);
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

  /** Records a newly stored image; the sessions already holding the same image (another process's) are kept. */
  put(rec: StoredImage): Promise<void> {
    this.entries.set(rec.id, rec);
    this.unwritten.add(rec.id);
    return this.update((images) => {
      const known = images.get(rec.id)?.sessions;
      images.set(rec.id, known ? { ...rec, sessions: known } : rec);
    });
  }

  /** Whether the index already records that the session holds the image (or cannot: unknown id, or an older entry). */
  referenced(id: string, sessionId: string): boolean {
    const rec = this.get(id);
    return !rec?.sessions || rec.sessions.includes(sessionId);
  }

  /** Records that a session holds these images. Unknown ids and entries without references are left alone. */
  reference(sessionId: string, ids: string[]): Promise<void> {
    return this.update((images) => {
      for (const id of ids) {
        const rec = images.get(id);
        if (rec?.sessions && !rec.sessions.includes(sessionId)) images.set(id, { ...rec, sessions: [...rec.sessions, sessionId] });
      }
    });
  }

  /**
   * Forgets the sessions' references. Images that were held by them and are held by no other
   * session leave the index; they are returned, for their files to be deleted.
   */
  release(sessionIds: string[]): Promise<StoredImage[]> {
    const gone = new Set(sessionIds);
    return this.update((images) => {
      const unreferenced: StoredImage[] = [];
      for (const rec of [...images.values()]) {
        if (!rec.sessions?.some((s) => gone.has(s))) continue;
        const sessions = rec.sessions.filter((s) => !gone.has(s));
        if (sessions.length) images.set(rec.id, { ...rec, sessions });
        else {
          images.delete(rec.id);
          unreferenced.push(rec);
        }
      }
      return unreferenced;
    });
  }

  /** Applies a change to the index and writes it; changes are serialized. */
  private update<T>(change: (images: Images) => T): Promise<T> {
    const next = this.writing.then(() => this.write(change));
    this.writing = next.catch(() => undefined);
    return next;
  }

  /**
   * The change is applied to index.json as it is now (what other processes added or removed),
   * plus what this process put and has not written yet. When the file is missing or unreadable,
   * what this process knows stands in for it.
   */
  private async write<T>(change: (images: Images) => T): Promise<T> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const images = readIndex(this.file) ?? new Map(this.entries);
    for (const id of this.unwritten) {
      const rec = this.entries.get(id);
      if (rec && !images.has(id)) images.set(id, rec);
    }
    const result = change(images);
    const out: IndexFile = { version: 1, images: Object.fromEntries(images) };
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    await fs.promises.writeFile(tmp, JSON.stringify(out, null, 1));
    await fs.promises.rename(tmp, this.file);
    this.unwritten.clear();
    this.entries = images;
    this.loadedMtime = (await fs.promises.stat(this.file)).mtimeMs;
    return result;
  }
}

/** The entries of index.json, or null when it is missing or not an index at all. */
function readIndex(file: string): Images | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const images = z.object({ images: z.record(z.string(), z.unknown()) }).safeParse(parsed);
  if (!images.success) return null;
  const out: Images = new Map();
  for (const raw of Object.values(images.data.images)) {
    const rec = storedImageSchema.safeParse(raw);
    if (rec.success) out.set(rec.data.id, rec.data as StoredImage);
  }
  return out;
}
