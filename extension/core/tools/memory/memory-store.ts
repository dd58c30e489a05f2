import * as fs from 'node:fs';
import * as path from 'node:path';
import { snowpeaHome } from '../../settings/files';

export type MemoryScope = 'workspace' | 'user';

/** Each store holds at most this many characters, so the digest stays small in every prompt. */
export const MEMORY_CAP = 2000;

export function memoryFile(scope: MemoryScope, workspaceRoot: string): string {
  return scope === 'workspace' ? path.join(workspaceRoot, '.snowpea', 'memory.md') : path.join(snowpeaHome(), 'memory.md');
}

export function memoryDisplay(scope: MemoryScope): string {
  return scope === 'workspace' ? '.snowpea/memory.md' : '~/.snowpea/memory.md';
}

/** The entries of one store: one `- ` line each. */
export function readEntries(file: string): string[] {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
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
export function memoryDigest(workspaceRoot: string): string | undefined {
  const parts: string[] = [];
  for (const scope of ['workspace', 'user'] as const) {
    const entries = readEntries(memoryFile(scope, workspaceRoot));
    if (entries.length) parts.push(`${scope === 'workspace' ? 'Workspace' : 'User'} memory (${memoryDisplay(scope)}):\n${render(entries).slice(0, MEMORY_CAP).trimEnd()}`);
  }
  return parts.length ? parts.join('\n\n') : undefined;
}

export const MEMORY_INSTRUCTIONS =
  'Memory: when the user states a lasting preference or you learn a durable fact about this project that later sessions need, save it with the memory tool (load it with tool_search). Keep entries short; do not save task progress or anything secret.';
