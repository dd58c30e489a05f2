import type { TranscriptItem, TranscriptItemKind } from '../state/types';

/**
 * First guesses of row heights (px) before a row is measured. Closer guesses mean less
 * jumping while scrolling through rows not yet seen; every row is measured once rendered.
 */
const LINE = 20;
const CHARS_PER_LINE = 48;

const estimates: { [K in TranscriptItemKind]: (item: Extract<TranscriptItem, { kind: K }>) => number } = {
  user: (i) => 16 + LINE * Math.max(1, Math.ceil(i.text.length / CHARS_PER_LINE)) + (i.images?.length ? 24 : 0),
  assistant: (i) => LINE * Math.max(1, Math.ceil(i.text.length / CHARS_PER_LINE) + (i.text.match(/\n\n/g)?.length ?? 0)),
  tool: (i) => (i.expanded ? 200 : 26),
  'tools.loaded': () => 22,
  error: () => 34,
  notice: () => 20,
  compaction: (i) => (i.expanded ? 24 + LINE * Math.max(2, Math.ceil(i.summary.length / CHARS_PER_LINE)) : 24),
};

export function estimateRow(item: TranscriptItem | undefined): number {
  if (!item) return LINE;
  return (estimates[item.kind] as (i: TranscriptItem) => number)(item);
}
