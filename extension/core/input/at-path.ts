/**
 * `@path` in a user prompt: images are attached through the attachment store, other files are
 * inlined as a file block (with read_file's caps), missing files stay as typed with a note.
 * Paths are relative to the workspace (absolute and `~/` work too); `@"my file.png"` quotes
 * a path with spaces. `@` counts only at the start or after a space or bracket, so e-mail
 * addresses and code in backticks are left alone. A mention takes read_file's path rules
 * (mention-path.ts): a link out of the workspace and credentials locations are not attached.
 * `@problems`, `@terminal` and `@changes` are keywords, not paths (mention-keywords.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContentPart, ImageRef } from '../conversation/messages';
import { IMAGE_EXTENSIONS, MAX_LINE_CHARS } from '../tools/core/read-file';
import { notRegularFileMessage } from '../tools/file-kind';
import { resolveToolPath } from '../tools/paths';
import { readDiskFile } from '../tools/disk-reader';
import { decodeText, looksBinary, numbered, splitLines } from '../tools/text';
import type { FileReader } from '../tools/types';
import { sniffFormat } from '../images/header';
import { ImageError } from '../images/limits';
import { mentionRefusal } from './mention-path';
import { isMentionKeyword, resolveKeyword, type MentionSources } from './mention-keywords';

export interface AtPathStore {
  addFile(absPath: string, opts?: { name?: string; source?: string; signal?: AbortSignal }): Promise<ImageRef>;
  addBytes(bytes: Uint8Array, opts: { name: string; source?: string; signal?: AbortSignal }): Promise<ImageRef>;
}

export interface AtPathOptions {
  /** tools.readMaxLines: lines of a text file inlined before it is cut. */
  readMaxLines: number;
  /** Editor-aware reads (unsaved text) in VS Code; default: the disk. */
  fileReader?: FileReader;
  signal?: AbortSignal;
  /** The editor's diagnostics and terminals for `@problems` and `@terminal` (absent in the CLI). */
  mentionSources?: MentionSources;
  /** `@changes` runs git only in a trusted workspace; default true. */
  workspaceTrusted?: boolean;
}

/** `keyword`: `@problems`, `@terminal` or `@changes` attached; `unavailable`: one that could not be (its note says why). */
export type MentionKind = 'image' | 'file' | 'missing' | 'folder' | 'refused' | 'keyword' | 'unavailable';

/** What became of one `@path`, for the UI ("the user sees why"). */
export interface Mention {
  /** As typed, `@` and quotes included. */
  raw: string;
  path: string;
  kind: MentionKind;
  /** The note added to the prompt when the path was not attached. */
  note?: string;
}

/** Same character cap as read_file's page. */
const MAX_BLOCK_CHARS = 200_000;
const MAX_TEXT_BYTES = 50 * 1024 * 1024;

const MENTION = /(^|[\s([{])@(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'`]+))/g;
const TRAILING_PUNCT = /[.,;:!?)\]}]+$/;

/** The `@path` mentions of a prompt, outside backtick code. */
export function findMentions(prompt: string): Array<{ raw: string; path: string; quoted: boolean }> {
  const code: Array<[number, number]> = [];
  for (const m of prompt.matchAll(/```[\s\S]*?(```|$)|`[^`\n]*`/g)) code.push([m.index!, m.index! + m[0].length]);
  const out: Array<{ raw: string; path: string; quoted: boolean }> = [];
  for (const m of prompt.matchAll(MENTION)) {
    const at = m.index! + m[1].length;
    if (code.some(([a, b]) => at >= a && at < b)) continue;
    const quoted = m[2] ?? m[3];
    out.push({ raw: m[0].slice(m[1].length), path: quoted ?? m[4], quoted: quoted !== undefined });
  }
  return out;
}

/** The prompt as typed, then one part per distinct mention: an image, a file block or a note. */
export async function expandAtPaths(prompt: string, workspaceRoot: string, store: AtPathStore, opts: AtPathOptions): Promise<{ parts: ContentPart[]; mentions: Mention[] }> {
  const parts: ContentPart[] = [{ type: 'text', text: prompt }];
  const mentions: Mention[] = [];
  const seen = new Set<string>();
  for (const m of findMentions(prompt)) {
    const word = m.quoted ? '' : m.path.replace(TRAILING_PUNCT, '');
    if (isMentionKeyword(word)) {
      if (seen.has(`@${word}`)) continue;
      seen.add(`@${word}`);
      const r = await resolveKeyword(word, { workspaceRoot, sources: opts.mentionSources, workspaceTrusted: opts.workspaceTrusted ?? true, signal: opts.signal });
      mentions.push({ raw: `@${word}`, path: word, kind: r.attached ? 'keyword' : 'unavailable', ...(r.note ? { note: r.note } : {}) });
      parts.push(...r.parts);
      continue;
    }
    let typed = m.path;
    let r = resolveToolPath(workspaceRoot, typed);
    if (!r.exists && !m.quoted && TRAILING_PUNCT.test(typed)) {
      const trimmed = typed.replace(TRAILING_PUNCT, '');
      const r2 = trimmed ? resolveToolPath(workspaceRoot, trimmed) : r;
      if (r2.exists) [typed, r] = [trimmed, r2];
    }
    const raw = m.quoted ? m.raw : `@${typed}`;
    if (!r.exists) {
      // `@Override`, `@here`: not path-like, so no note; `@src/nope.ts`: a note.
      if (!m.quoted && !/[./\\]/.test(typed)) continue;
      const note = `[${raw}: no such file in the workspace; left as typed]`;
      mentions.push({ raw, path: typed, kind: 'missing', note });
      parts.push({ type: 'text', text: note });
      continue;
    }
    if (seen.has(r.real)) continue;
    seen.add(r.real);
    const name = path.isAbsolute(typed) || typed.startsWith('~') ? r.display : typed.replace(/\\/g, '/').replace(/^\.\//, '');
    const why = mentionRefusal(workspaceRoot, r);
    const result = why ? refusedPart(name, why) : await attachPath(r.real, name, store, opts);
    mentions.push({ raw, path: typed, kind: result.kind, ...(result.note ? { note: result.note } : {}) });
    parts.push(...result.parts);
  }
  return { parts, mentions };
}

/** A path not attached: the note the model reads and the user sees. */
export function refusedPart(name: string, why: string): { kind: 'refused'; parts: ContentPart[]; note: string } {
  const note = `[@${name}: not attached: ${why}]`;
  return { kind: 'refused', parts: [{ type: 'text', text: note }], note };
}

/**
 * One existing path as prompt parts: an image (through the store), a text file block, or a note
 * saying why not. Callers check the path first with mentionRefusal (mention-path.ts).
 */
export async function attachPath(abs: string, name: string, store: AtPathStore, opts: AtPathOptions): Promise<{ kind: MentionKind; parts: ContentPart[]; note?: string }> {
  const refused = (why: string) => refusedPart(name, why);
  const st = await fs.promises.stat(abs);
  if (st.isDirectory()) {
    const note = `[@${name}: is a folder; not attached (mention files, or ask to list it)]`;
    return { kind: 'folder', parts: [{ type: 'text', text: note }], note };
  }
  const special = notRegularFileMessage(name, st);
  if (special) return refused(special);
  try {
    if (IMAGE_EXTENSIONS.has(path.extname(abs).toLowerCase())) return imageParts(await store.addFile(abs, { name, source: 'at-path', signal: opts.signal }));
    if (st.size > MAX_TEXT_BYTES) return refused(`${st.size} bytes is more than a prompt can carry; ask the agent to read parts of it`);
    const bytes = opts.fileReader ? (await opts.fileReader.read(abs, opts.signal)).bytes : await readDiskFile(abs, opts.signal);
    if (sniffFormat(bytes)) return imageParts(await store.addBytes(bytes, { name, source: 'at-path', signal: opts.signal }));
    if (looksBinary(bytes)) return refused(`binary file (${bytes.length} bytes); only text files and images can be attached`);
    return { kind: 'file', parts: [{ type: 'text', text: fileBlock(name, bytes, opts.readMaxLines) }] };
  } catch (e) {
    if (e instanceof ImageError) return refused(e.message);
    throw e;
  }
}

function imageParts(ref: ImageRef): { kind: MentionKind; parts: ContentPart[] } {
  return { kind: 'image', parts: [{ type: 'text', text: `[image @${ref.name}]` }, ref] };
}

/** `<file path="src/a.ts" lines="1-120 of 120">`, numbered lines as read_file shows them, `</file>`. */
export function fileBlock(name: string, bytes: Uint8Array, maxLines: number): string {
  const { text, encodingNote } = decodeText(bytes);
  const lines = splitLines(text);
  const out: string[] = [];
  let chars = 0;
  let end = 0;
  for (let i = 1; i <= Math.min(lines.length, maxLines) && (chars < MAX_BLOCK_CHARS || i === 1); i++) {
    const line = lines[i - 1];
    const row = numbered(i, line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line clipped: ${line.length - MAX_LINE_CHARS} more chars]` : line);
    out.push(row);
    chars += row.length + 1;
    end = i;
  }
  const span = lines.length ? `1-${end} of ${lines.length}` : '0';
  const notes: string[] = [];
  if (end < lines.length) notes.push(`[showing lines 1-${end} of ${lines.length}; call read_file with offset=${end + 1} to read more]`);
  if (encodingNote) notes.push(`[${name}: ${encodingNote}]`);
  return [`<file path="${name}" lines="${span}">`, ...out, ...notes, '</file>'].join('\n');
}
