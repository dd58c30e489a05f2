import * as fs from 'node:fs';
import * as path from 'node:path';
import { snowpeaHome } from '../../settings/files';
import { readConfined } from '../confined-read';

export type MemoryScope = 'workspace' | 'user';

/** Each store holds at most this many characters, so the digest stays small in every prompt. */
export const MEMORY_CAP = 2000;

export function memoryFile(scope: MemoryScope, workspaceRoot: string): string {
  return scope === 'workspace' ? path.join(workspaceRoot, '.snowpea', 'memory.md') : path.join(snowpeaHome(), 'memory.md');
}

export function memoryDisplay(scope: MemoryScope): string {
  return scope === 'workspace' ? '.snowpea/memory.md' : '~/.snowpea/memory.md';
}

/** A hand-edited store may be longer than MEMORY_CAP; more than this is never read. */
const MAX_STORE_BYTES = 64 * 1024;

/** The folder a store must stay in: the Snowpea home for the user store, else the workspace (`<root>/.snowpea/memory.md`). */
function storeRoot(file: string): string {
  const userFile = path.join(snowpeaHome(), 'memory.md');
  return path.resolve(file) === path.resolve(userFile) ? snowpeaHome() : path.dirname(path.dirname(file));
}

/**
 * The entries of one store: one `- ` line each. The file is read only when its real path stays in
 * its root (a `.snowpea/memory.md` linked to /proc/self/environ reads as empty), it is a regular file,
 * and at most 64 KB of it (H5).
 */
export function readEntries(file: string, onSkip?: (why: string) => void): string[] {
  const r = readConfined(file, storeRoot(file), { maxBytes: MAX_STORE_BYTES, label: file });
  if (r.kind === 'skipped') onSkip?.(`memory not read: ${r.why}`);
  if (r.kind !== 'ok') return [];
  return r.head
    .toString('utf8')
    .split('\n')
    .map((l) => l.replace(/^\s*-\s?/, '').trim())
    .filter(Boolean);
}

export function render(entries: string[]): string {
  return entries.map((e) => `- ${e}`).join('\n') + (entries.length ? '\n' : '');
}

export function writeEntries(file: string, entries: string[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, render(entries));
  fs.renameSync(tmp, file);
}

/** Both stores for the system prompt, or undefined when both are empty. */
export function memoryDigest(workspaceRoot: string, onSkip?: (why: string) => void): string | undefined {
  const parts: string[] = [];
  for (const scope of ['workspace', 'user'] as const) {
    const entries = readEntries(memoryFile(scope, workspaceRoot), onSkip);
    if (entries.length) parts.push(`${scope === 'workspace' ? 'Workspace' : 'User'} memory (${memoryDisplay(scope)}):\n${render(entries).slice(0, MEMORY_CAP).trimEnd()}`);
  }
  return parts.length ? parts.join('\n\n') : undefined;
}

export const MEMORY_INSTRUCTIONS =
  'Memory: when the user states a lasting preference or you learn a durable fact about this project that later sessions need, save it with the memory tool (load it with tool_search). Keep entries short; do not save task progress or anything secret.';
