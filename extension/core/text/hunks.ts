/**
 * The hunks of a change: each run of consecutive changed lines between a file's earlier text and
 * its text now, to keep or undo one at a time. Lines keep their own endings (CRLF, LF, none at the
 * end), so undoing a hunk puts its old lines back exactly and leaves every other line as it is.
 */
import { createHash } from 'node:crypto';
import { diffArrays } from 'diff';

export interface Hunk {
  /** Stays the same while the hunk's lines do, wherever later edits move it; unique in the file. */
  key: string;
  /** 0-based first line of the hunk in the earlier text (where its old lines start). */
  oldStart: number;
  /** 0-based first line of the hunk in the text now. */
  newStart: number;
  /** The lines it removes and adds, each with its line ending. */
  removed: string[];
  added: string[];
}

/** Thrown when the hunk asked for is not in the file any more (the file changed since the list was drawn). */
export class HunkGoneError extends Error {}

/** The lines of `text`, each with its ending (\r\n, \n or \r); the last has none when the text does not end in one. */
export function linesWithEnds(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\n|\r)|[^\r\n]+$/g) ?? [];
}

/** A line as shown: without its ending. */
export function lineText(line: string): string {
  return line.replace(/(?:\r\n|\n|\r)$/, '');
}

/** The hunks going from `before` to `after`, in file order. */
export function splitHunks(before: string, after: string): Hunk[] {
  const hunks: Hunk[] = [];
  const seen = new Map<string, number>();
  let oldAt = 0;
  let newAt = 0;
  let open: Omit<Hunk, 'key'> | undefined;
  const close = () => {
    if (!open) return;
    const content = createHash('sha256').update(JSON.stringify([open.removed, open.added])).digest('hex').slice(0, 16);
    const nth = seen.get(content) ?? 0;
    seen.set(content, nth + 1);
    hunks.push({ key: `${content}-${nth}`, ...open });
    open = undefined;
  };
  for (const c of diffArrays(linesWithEnds(before), linesWithEnds(after))) {
    if (!c.added && !c.removed) {
      close();
      oldAt += c.count;
      newAt += c.count;
      continue;
    }
    open ??= { oldStart: oldAt, newStart: newAt, removed: [], added: [] };
    if (c.removed) {
      open.removed.push(...c.value);
      oldAt += c.count;
    } else {
      open.added.push(...c.value);
      newAt += c.count;
    }
  }
  close();
  return hunks;
}

function find(before: string, after: string, key: string): Hunk {
  const h = splitHunks(before, after).find((x) => x.key === key);
  if (!h) throw new HunkGoneError('that change is no longer in the file (it was edited since the list was drawn)');
  return h;
}

/** `after` with hunk `key`'s old lines put back in place of its new ones; every other line stays. */
export function undoHunk(before: string, after: string, key: string): string {
  const h = find(before, after, key);
  const lines = linesWithEnds(after);
  lines.splice(h.newStart, h.added.length, ...h.removed);
  return lines.join('');
}

/** `before` with hunk `key` taken in: the new earlier text against which the hunk is no longer a change. */
export function keepHunk(before: string, after: string, key: string): string {
  const h = find(before, after, key);
  const lines = linesWithEnds(before);
  lines.splice(h.oldStart, h.removed.length, ...h.added);
  return lines.join('');
}

/**
 * The hunk at 0-based `line` of the text now (`side` 'new') or of the earlier text ('old'), as a
 * cursor in either side of a diff finds it. A hunk that only removes lines sits between two lines
 * of the text now: the line just before or just after it finds it.
 */
export function hunkAt(hunks: Hunk[], line: number, side: 'old' | 'new'): Hunk | undefined {
  const span = (h: Hunk) => (side === 'new' ? [h.newStart, h.added.length] : [h.oldStart, h.removed.length]);
  const inside = hunks.find((h) => {
    const [start, n] = span(h);
    return line >= start && line < start + n;
  });
  return (
    inside ??
    hunks.find((h) => {
      const [start, n] = span(h);
      return n === 0 && (line === start || line === start - 1);
    })
  );
}
