import type { CompactionItem } from '../../state/types';

/** Tokens rounded to thousands for the divider: `96k`, `11k`; below a thousand as they are. */
export function roundedTokens(n: number): string {
  return n < 1000 ? String(n) : `${Math.round(n / 1000)}k`;
}

/** The divider's line: `Conversation compacted: 96k → 11k tokens` (the fallback says the rounds were omitted). */
export function compactionLabel(item: Pick<CompactionItem, 'tokensBefore' | 'tokensAfter' | 'trigger'>): string {
  const label = `Conversation compacted: ${roundedTokens(item.tokensBefore)} → ${roundedTokens(item.tokensAfter)} tokens`;
  return item.trigger === 'fallback' ? `${label}, older rounds omitted` : label;
}

const why: Record<CompactionItem['trigger'], string> = {
  auto: 'as the request neared the context window',
  manual: 'on request',
  overflow: 'after the provider said the request was too long',
  fallback: 'because the summary could not be written',
};

/** The first line of the opened divider: what was summarized (or omitted), and why. */
export function compactionDetail(item: Pick<CompactionItem, 'rounds' | 'trigger' | 'failure'>): string {
  const rounds = `${item.rounds} earlier model round${item.rounds === 1 ? '' : 's'}`;
  if (item.trigger === 'fallback') {
    return `${rounds} omitted from later requests ${why.fallback}${item.failure ? ` (${item.failure})` : ''}. The session's full history is stored.`;
  }
  return `${rounds} summarized ${why[item.trigger]}; later requests carry this summary instead. The session's full history is stored.`;
}
