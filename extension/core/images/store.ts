/**
 * The attachment store: every image enters here, whatever brings it (webview paste, drop and
 * picker as bytes; @path, view_image and --attach as a file; MCP image blocks as base64;
 * browser screenshots as bytes). It keeps the original and a model-ready copy in its folder,
 * records both in index.json and hands back an ImageRef; the transcript holds only the ref.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ImageRef } from '../conversation/messages';
import type { ImageNotSent, ImageResolver } from '../conversation/wire';
import { silentLogger, type Logger } from '../log';
import { AttachmentIndex, type StoredFile, type StoredImage } from './attachment-index';
import { workerDownscaler, type Downscaler } from './downscale';
import { downscaleImage, inspectImage } from './prepare';
import { formatBytes, ImageError, type ImageLimits } from './limits';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../os/private-files';

export interface AttachmentStoreOptions {
  /** The folder the images and index.json live in (e.g. <scratch>/attachments). */
  dir: string;
  /** Read on every add, so a settings change applies to the next image. */
  limits: () => ImageLimits;
  /** Default: jimp in a worker thread. */
  downscaler?: Downscaler;
  logger?: Logger;
}

export interface AddImageOptions {
  /** Shown to the model and the user (`image attached: <name>`). */
  name: string;
  /** What the sender claims; the bytes decide. */
  mime?: string;
  source?: string;
  signal?: AbortSignal;
}

/** Data URLs kept in memory so each round's request does not re-read and re-encode the files. */
const DATA_URL_CACHE_CHARS = 64 * 1024 * 1024;

export class AttachmentStore {
  readonly dir: string;
  private readonly index: AttachmentIndex;
  private readonly downscaler: Downscaler;
  private readonly logger: Logger;
  private readonly pending = new Map<string, Promise<StoredImage>>();
  private readonly urls = new Map<string, string>();
  /** Images already warned about as unreadable. */
  private readonly warned = new Set<string>();
  private urlChars = 0;

  constructor(private readonly opts: AttachmentStoreOptions) {
    this.dir = opts.dir;
    this.index = new AttachmentIndex(opts.dir);
    this.downscaler = opts.downscaler ?? workerDownscaler();
    this.logger = opts.logger ?? silentLogger;
  }

  /** Adds an image file. The size is checked before the file is read. */
  async addFile(absPath: string, opts: Partial<AddImageOptions> = {}): Promise<ImageRef> {
    const name = cleanName(opts.name ?? path.basename(absPath));
    let st: fs.Stats;
    try {
      st = await fs.promises.stat(absPath);
    } catch {
      throw new ImageError('not_found', `${name} does not exist (${absPath})`);
    }
    if (st.isDirectory()) throw new ImageError('not_image', `${name} is a folder, not an image`);
    this.checkSize(name, st.size);
    const bytes = await fs.promises.readFile(absPath, { signal: opts.signal });
    return this.addBytes(bytes, { source: 'file', ...opts, name });
  }

  /** Adds base64 image data (MCP image blocks, the webview's pasted images). The size is checked before decoding. */
  async addBase64(data: string, opts: AddImageOptions): Promise<ImageRef> {
    const b64 = data.replace(/^data:[^,]*,/, '');
    const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
    this.checkSize(cleanName(opts.name), Math.floor((b64.length * 3) / 4) - padding);
    return this.addBytes(Buffer.from(b64, 'base64'), opts);
  }

  /** Adds image bytes (paste, drop, picker, screenshots). */
  async addBytes(bytes: Uint8Array, opts: AddImageOptions): Promise<ImageRef> {
    const name = cleanName(opts.name);
    const limits = this.opts.limits();
    this.checkSize(name, bytes.length, limits);
    const sha256 = await hashInSlices(bytes);
    const id = createHash('sha256').update(`${sha256}|${limits.maxDimension}|${limits.maxBytes}`).digest('hex').slice(0, 24);
    const known = this.index.get(id);
    const rec = known && this.filesExist(known) ? known : await this.storeOnce(id, () => this.store(id, bytes, { ...opts, name }, sha256, limits));
    return { type: 'image', imageId: rec.id, name, mime: rec.sent.mime, width: rec.sent.width, height: rec.sent.height };
  }

  /** What the store knows about an image id (also ids stored by an earlier process). */
  get(id: string): StoredImage | undefined {
    return this.index.get(id);
  }

  /** Absolute path of the original, or of the copy sent to the model. */
  pathOf(id: string, which: 'original' | 'sent' = 'sent'): string | undefined {
    const rec = this.index.get(id);
    return rec ? path.join(this.dir, rec[which].file) : undefined;
  }

  /** The model-ready copy as a data URL, or null when the id is unknown or its file is gone. */
  dataUrl(id: string): string | null {
    const r = this.load(id);
    return typeof r === 'string' ? r : null;
  }

  /**
   * The ImageResolver for requests: data URLs when the model takes images, else null (the
   * no-vision marker). An image whose stored file is gone gets a marker saying so.
   */
  resolver(supportsImages: boolean | (() => boolean)): ImageResolver {
    return (img) => ((typeof supportsImages === 'function' ? supportsImages() : supportsImages) ? this.load(img.imageId) : null);
  }

  /** The data URL, or why there is none (warned once per image: requests resolve every round). */
  private load(id: string): string | ImageNotSent {
    const hit = this.urls.get(id);
    if (hit) return hit;
    const rec = this.index.get(id);
    if (!rec) return this.notSent(id, 'it is not in the attachment store', `image ${id} is not in the attachment store at ${this.dir}`);
    const file = path.join(this.dir, rec.sent.file);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      return this.notSent(id, missing ? 'the stored file is missing' : 'the stored file could not be read', `image ${rec.name} (${id}) could not be read: ${(e as Error).message}`);
    }
    this.warned.delete(id);
    const url = `data:${rec.sent.mime};base64,${bytes.toString('base64')}`;
    this.remember(id, url);
    return url;
  }

  private notSent(id: string, reason: string, warning: string): ImageNotSent {
    if (!this.warned.has(id)) this.logger.warn(`${warning}; the request says "not sent: ${reason}"`);
    this.warned.add(id);
    return { notSent: reason };
  }

  /**
   * Records that a session's transcript holds these images, so deleting another session that
   * shows the same picture keeps its file. A write only when something is new.
   */
  async reference(sessionId: string, ids: string[]): Promise<void> {
    const fresh = ids.filter((id) => !this.index.referenced(id, sessionId));
    if (fresh.length) await this.index.reference(sessionId, fresh);
  }

  /**
   * The sessions were deleted: forgets their references and deletes the files of the images no
   * other session holds. Never throws; what could not be deleted is logged. Returns the image
   * ids that left the store.
   */
  async releaseSessions(sessionIds: string[]): Promise<string[]> {
    if (!sessionIds.length) return [];
    let unreferenced: StoredImage[];
    try {
      unreferenced = await this.index.release(sessionIds);
    } catch (e) {
      this.logger.warn(`attachments: could not update ${path.join(this.dir, 'index.json')} for deleted sessions; their images are kept: ${(e as Error).message}`);
      return [];
    }
    for (const rec of unreferenced) {
      this.forget(rec.id);
      for (const file of new Set([rec.original.file, rec.sent.file])) {
        await fs.promises.rm(path.join(this.dir, file), { force: true }).catch((e: Error) => this.logger.warn(`attachments: could not delete ${path.join(this.dir, file)} (${rec.name}): ${e.message}`));
      }
    }
    return unreferenced.map((rec) => rec.id);
  }

  private checkSize(name: string, size: number, limits = this.opts.limits()): void {
    if (size > limits.maxFileBytes) {
      throw new ImageError('too_large', `${name} is ${formatBytes(size)}, over the ${formatBytes(limits.maxFileBytes)} limit for images (setting images.maxFileBytes)`);
    }
  }

  private storeOnce(id: string, fn: () => Promise<StoredImage>): Promise<StoredImage> {
    let p = this.pending.get(id);
    if (!p) {
      p = fn().finally(() => this.pending.delete(id));
      this.pending.set(id, p);
    }
    return p;
  }

  private async store(id: string, bytes: Uint8Array, opts: AddImageOptions, sha256: string, limits: ImageLimits): Promise<StoredImage> {
    const inspected = inspectImage(bytes, opts.name, limits);
    ensurePrivateDir(this.dir); // 0700: the user's images and their names are private
    const o = inspected.original;
    const original: StoredFile = { file: `${id}.${o.ext}`, mime: o.mime, bytes: bytes.length, width: o.width, height: o.height };
    const originalPath = path.join(this.dir, original.file);
    await writeAtomic(originalPath, bytes);
    let sent = original;
    if (inspected.needsDownscale) {
      // The worker reads the stored original itself: no pixels are copied on this thread.
      const out = await downscaleImage(inspected, { file: originalPath }, opts.name, limits, this.downscaler, opts.signal).catch(async (e) => {
        if (!this.index.get(id)) await fs.promises.rm(originalPath, { force: true });
        throw e;
      });
      sent = { file: `${id}.sent.${out.ext}`, mime: out.mime, bytes: out.bytes.length, width: out.width, height: out.height };
      await writeAtomic(path.join(this.dir, sent.file), out.bytes);
    }
    const rec: StoredImage = { id, name: opts.name, source: opts.source ?? 'bytes', created: Date.now(), sha256, original, sent, sessions: [] };
    await this.index.put(rec);
    return rec;
  }

  private filesExist(rec: StoredImage): boolean {
    return fs.existsSync(path.join(this.dir, rec.original.file)) && fs.existsSync(path.join(this.dir, rec.sent.file));
  }

  private forget(id: string): void {
    const url = this.urls.get(id);
    if (url) this.urlChars -= url.length;
    this.urls.delete(id);
    this.warned.delete(id);
  }

  private remember(id: string, url: string): void {
    if (url.length > DATA_URL_CACHE_CHARS) return;
    this.urls.set(id, url);
    this.urlChars += url.length;
    for (const [k, v] of this.urls) {
      if (this.urlChars <= DATA_URL_CACHE_CHARS) break;
      this.urls.delete(k);
      this.urlChars -= v.length;
    }
  }
}

/** One line, no control characters, at most 200 characters: the name ends up in prompts and captions. */
export function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
  const one = name.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return (one.length > 200 ? `${one.slice(0, 199)}…` : one) || 'image';
}

/** sha256 in 1 MB slices with a yield between them, so hashing 20 MB never holds the event loop for long. */
async function hashInSlices(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  const slice = 1 << 20;
  for (let o = 0; o < bytes.length; o += slice) {
    if (o) await new Promise((r) => setImmediate(r));
    hash.update(bytes.subarray(o, o + slice));
  }
  return hash.digest('hex');
}

async function writeAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(tmp, bytes, { mode: PRIVATE_FILE_MODE });
  await fs.promises.rename(tmp, file);
}
