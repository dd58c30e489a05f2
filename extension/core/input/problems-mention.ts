/**
 * `@problems`: the workspace's current diagnostics (VS Code's Problems panel), compact: errors then
 * warnings, one line each (`src/a.ts:12:5 error [ts 2322] message`), the message's first line only.
 * Information and hints are left out (counted). At most MAX_PROBLEMS lines and MAX_PROBLEMS_CHARS
 * characters; the rest is counted in a closing line.
 */
import type { Problem, ProblemSeverity } from '../tools/problems-introduced';
import { block, nothingThere, type KeywordResult } from './keyword-parts';

/** One diagnostic as the host hands it over (no `vscode` types in core): a Problem with where it is. */
export interface ProblemEntry extends Problem {
  /** Workspace-relative (`/` separators), or absolute for a file outside the workspace. */
  path: string;
  /** From 1. */
  column: number;
}

export const MAX_PROBLEMS = 100;
export const MAX_PROBLEMS_CHARS = 20_000;
/** A message longer than this is cut (a type error can quote a whole type). */
export const MAX_PROBLEM_MESSAGE_CHARS = 300;

const RANK: Record<ProblemSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** `src/a.ts:12:5 error [ts 2322] Type 'string' is not assignable to type 'number'.` */
export function problemLine(p: ProblemEntry): string {
  const first = p.message.split(/\r?\n/, 1)[0]!.trim();
  const message = first.length > MAX_PROBLEM_MESSAGE_CHARS ? `${first.slice(0, MAX_PROBLEM_MESSAGE_CHARS)}…` : first;
  const who = [p.source, p.code].filter((x) => x !== undefined && x !== '').join(' ');
  return `${p.path}:${p.line}:${p.column} ${p.severity}${who ? ` [${who}]` : ''} ${message}`;
}

export function problemsPart(all: readonly ProblemEntry[]): KeywordResult {
  const kept = all.filter((p) => p.severity === 'error' || p.severity === 'warning');
  const quiet = all.length - kept.length;
  const quietText = `${quiet} information or hint diagnostic${quiet === 1 ? '' : 's'} left out`;
  if (!kept.length) return nothingThere('problems', `VS Code reports no errors or warnings in the workspace${quiet ? ` (${quietText})` : ''}`);
  const sorted = kept.slice().sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  const errors = sorted.filter((p) => p.severity === 'error').length;
  const lines: string[] = [];
  let chars = 0;
  for (const p of sorted) {
    if (lines.length >= MAX_PROBLEMS) break;
    const line = problemLine(p);
    if (lines.length && chars + line.length + 1 > MAX_PROBLEMS_CHARS) break;
    lines.push(line);
    chars += line.length + 1;
  }
  const rest = sorted.length - lines.length;
  const notes: string[] = [];
  if (rest) notes.push(`[showing ${lines.length} of ${sorted.length} problems; ${rest} more not shown]`);
  if (quiet) notes.push(`[${quietText}]`);
  const head = `<problems errors="${errors}" warnings="${sorted.length - errors}">`;
  return block([head, ...lines, ...notes, '</problems>'].join('\n'));
}
