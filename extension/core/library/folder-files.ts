import * as fs from 'node:fs';
import * as path from 'node:path';
import { readConfined } from '../tools/confined-read';
import { isWithin } from '../tools/paths';

/** One file of a command or agent folder, read within its caps. */
export interface FolderFile {
  abs: string;
  /** Relative to the folder, posix (`frontend/component.md`). */
  rel: string;
  text: string;
  /** Only the first `maxBytes` were read. */
  truncated: boolean;
}

export interface FolderReadOptions {
  /** Which file names count (`.md`, `.prompt.md`). */
  match: (name: string) => boolean;
  /** Also read subfolders (Claude Code's namespaced commands), at most a few levels deep. */
  recursive: boolean;
  maxFiles: number;
  maxBytes: number;
  onSkip?: (why: string) => void;
}

const MAX_DEPTH = 4;

function real(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * The matching files of `folder`, sorted by path, when the folder's real path stays inside
 * `owner` (the workspace, or the user folder it belongs to): a link out of it reads nothing, and
 * each file must be a regular file whose real path stays inside `owner` too (confined-read.ts).
 * Bounded: at most `maxFiles` files, each up to `maxBytes`.
 */
export function readFolderFiles(folder: string, owner: string, o: FolderReadOptions): FolderFile[] {
  const ownerReal = real(owner);
  const folderReal = real(folder);
  if (!ownerReal || !folderReal) return [];
  if (!isWithin(ownerReal, folderReal)) {
    o.onSkip?.(`${folder} not read: it links to ${folderReal}, outside ${ownerReal}`);
    return [];
  }
  const out: FolderFile[] = [];
  const visit = (dir: string, relDir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (out.length >= o.maxFiles) return;
      const abs = path.join(dir, e.name);
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        // Real folders only: a linked folder is not entered (it could lead anywhere, or in a circle).
        if (o.recursive && depth < MAX_DEPTH && !e.name.startsWith('.')) visit(abs, rel, depth + 1);
        continue;
      }
      if (!o.match(e.name)) continue;
      const r = readConfined(abs, ownerReal, { maxBytes: o.maxBytes, label: abs });
      if (r.kind === 'skipped') o.onSkip?.(`not read: ${r.why}`);
      if (r.kind !== 'ok') continue;
      out.push({ abs, rel, text: r.head.toString('utf8'), truncated: r.truncated });
    }
  };
  visit(folderReal, '', 0);
  return out;
}

/** One file (`.roomodes`), read when its real path stays inside `owner`; undefined when absent or refused. */
export function readOwnedFile(file: string, owner: string, maxBytes: number, onSkip?: (why: string) => void): { text: string; truncated: boolean } | undefined {
  const ownerReal = real(owner);
  if (!ownerReal) return undefined;
  const r = readConfined(file, ownerReal, { maxBytes, label: file });
  if (r.kind === 'skipped') onSkip?.(`not read: ${r.why}`);
  if (r.kind !== 'ok') return undefined;
  return { text: r.head.toString('utf8'), truncated: r.truncated };
}
