/** The files that differ between a checkpoint's tree and the work tree's, from `git diff-tree -z`. */

export type ChangeStatus = 'added' | 'modified' | 'deleted';

export interface FileChange {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  /** As of now against the checkpoint: added since (restore removes it), modified, or deleted since (restore recreates it). */
  status: ChangeStatus;
}

export interface FileStat extends FileChange {
  /** Lines added and removed; null for a binary file. */
  added: number | null;
  removed: number | null;
}

/** A gitlink: a nested repository, whose files are its own (never checkpointed or restored). */
const GITLINK = '160000';
const NO_FILE = '000000';

/** Parses `git diff-tree -r -z --raw --no-renames` (`:m1 m2 s1 s2 X\0path\0` per file). */
export function parseRaw(out: string): FileChange[] {
  const parts = out.split('\0');
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [before, after] = parts[i].replace(/^:/, '').split(' ');
    const file = parts[i + 1];
    if (!file || before === GITLINK || after === GITLINK || !safeRelative(file)) continue;
    changes.push({ path: file, status: before === NO_FILE ? 'added' : after === NO_FILE ? 'deleted' : 'modified' });
  }
  return changes;
}

/** Parses `git diff-tree -r -z --numstat --no-renames` (`added\tremoved\tpath\0` per file, `-` for binary). */
export function parseNumstat(out: string): Map<string, { added: number | null; removed: number | null }> {
  const stats = new Map<string, { added: number | null; removed: number | null }>();
  for (const entry of out.split('\0')) {
    const m = /^(\d+|-)\t(\d+|-)\t(.+)$/s.exec(entry);
    if (m) stats.set(m[3], { added: m[1] === '-' ? null : Number(m[1]), removed: m[2] === '-' ? null : Number(m[2]) });
  }
  return stats;
}

const ORDER: Record<ChangeStatus, number> = { added: 0, deleted: 1, modified: 2 };

/** Removals first (files created since, which a restore deletes), then recreations, then rewrites; by path within each. */
export function byRestoreOrder(a: FileChange, b: FileChange): number {
  return ORDER[a.status] - ORDER[b.status] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** A path git may hand back that stays inside the work tree: relative, no `..`, no empty segment. */
export function safeRelative(p: string): boolean {
  return !p.startsWith('/') && !/^[A-Za-z]:/.test(p) && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('\\'));
}

/** `src/a.ts +4 -1`, `logo.png (binary)`: one file of a diff stat. */
export function statLine(s: FileStat): string {
  return s.added === null || s.removed === null ? `${s.path} (binary${s.status === 'modified' ? '' : `, ${s.status}`})` : `${s.path} +${s.added} -${s.removed}`;
}

/** `changed 3 files: src/a.ts +4 -1, ...` (at most `max` named); empty when nothing changed. */
export function diffStatLine(stats: readonly FileStat[], max = 20): string {
  if (!stats.length) return '';
  const named = stats.slice(0, max).map(statLine).join(', ');
  const more = stats.length > max ? `, and ${stats.length - max} more` : '';
  return `changed ${stats.length} file${stats.length === 1 ? '' : 's'}: ${named}${more}`;
}
