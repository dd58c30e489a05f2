import { numbered } from '../text';

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient over character bigrams of the trimmed strings: 1 for equal, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const bx = bigrams(x);
  let common = 0;
  for (const [g, n] of bigrams(y)) {
    const have = bx.get(g) ?? 0;
    common += Math.min(have, n);
  }
  return (2 * common) / (x.length - 1 + y.length - 1);
}

const WINDOW_MAX = 20;
const SHOW_MAX = 6;

export interface SimilarRegion {
  line: number;
  score: number;
  text: string;
}

/**
 * The regions of `fileLines` that look most like `needle` (a block of one or more lines), best first.
 * Each window of the needle's height is scored by the mean line similarity; overlapping windows are merged.
 */
export function nearestRegions(fileLines: string[], needle: string, max = 2, minScore = 0.5): SimilarRegion[] {
  const want = needle.split(/\r?\n/).slice(0, WINDOW_MAX);
  while (want.length > 1 && want[want.length - 1].trim() === '') want.pop();
  const h = want.length;
  const scored: { line: number; score: number }[] = [];
  for (let i = 0; i + h <= fileLines.length || (i === 0 && fileLines.length > 0); i++) {
    let sum = 0;
    for (let j = 0; j < h && i + j < fileLines.length; j++) sum += similarity(want[j], fileLines[i + j]);
    scored.push({ line: i + 1, score: sum / h });
    if (i + h > fileLines.length) break;
  }
  scored.sort((a, b) => b.score - a.score || a.line - b.line);
  const picked: SimilarRegion[] = [];
  for (const s of scored) {
    if (s.score < minScore || picked.length >= max) break;
    if (picked.some((p) => Math.abs(p.line - s.line) < h)) continue;
    const rows = fileLines.slice(s.line - 1, s.line - 1 + Math.min(h, SHOW_MAX)).map((t, k) => numbered(s.line + k, t));
    picked.push({ line: s.line, score: s.score, text: rows.join('\n') });
  }
  return picked;
}
