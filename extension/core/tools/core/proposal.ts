import { createTwoFilesPatch, diffLines, FILE_HEADERS_ONLY } from 'diff';
import type { WriteProposal } from '../types';

/** Most lines and characters of the diff that tells the model how the user changed its edit. */
const NOTE_MAX_LINES = 40;
const NOTE_MAX_CHARS = 4000;

/** Lines added and removed going from `before` to `after` (the +N −M of an approval card or a changed file). */
export function lineCounts(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const c of diffLines(before, after)) {
    if (c.added) added += c.count;
    else if (c.removed) removed += c.count;
  }
  return { added, removed };
}

/** The 0-based lines of `after` that are new or changed against `before` (the editor marks them). */
export function changedLines(before: string, after: string): number[] {
  const lines: number[] = [];
  let at = 0;
  for (const c of diffLines(before, after)) {
    if (c.removed) continue;
    if (c.added) for (let i = 0; i < c.count; i++) lines.push(at + i);
    at += c.count;
  }
  return lines;
}

/** `+3 −1`: a proposal's line counts as the approval card and the terminal show them. */
export function proposalStat(p: WriteProposal): string {
  const { added, removed } = lineCounts(p.current, p.proposed);
  return `+${added} −${removed}`;
}

/** A unified diff from `before` to `after`, headers `from`/`to`, cut to a few dozen lines. */
export function shortDiff(before: string, after: string, from: string, to: string): string {
  const lines = createTwoFilesPatch(from, to, before, after, '', '', { context: 2, headerOptions: FILE_HEADERS_ONLY }).trimEnd().split('\n');
  let out = lines.slice(0, NOTE_MAX_LINES).join('\n');
  if (out.length > NOTE_MAX_CHARS) out = out.slice(0, NOTE_MAX_CHARS);
  const cut = lines.length > NOTE_MAX_LINES || out.length < lines.join('\n').length;
  return cut ? `${out}\n[… diff cut; read the file for the rest]` : out;
}

/** What the model reads when the user changed its proposal before accepting it. */
export function userChangeNote(display: string, proposed: string, accepted: string): string {
  return [
    `The user changed your edit of ${display} before accepting it; the file now holds their version. Their change to your proposal:`,
    shortDiff(proposed, accepted, 'your proposal', 'as the user accepted it'),
    'Read the file again before editing it further.',
  ].join('\n');
}
