import { useChat } from '../app/context';
import type { ChatState } from '../state/types';
import { compactionLabel } from './compaction/compaction-format';

/** What a screen reader hears when the turn changes state; the virtualized transcript itself stays quiet. */
function announcement(s: ChatState): string {
  if (s.approvals.length) return `${s.approvals[0]?.tool} needs your approval.`;
  if (s.asks.length) return 'Snowpea asks a question.';
  if (s.running) return 'Snowpea is working.';
  const last = s.items[s.items.length - 1];
  if (last?.kind === 'error') return `Error: ${last.message}`;
  if (last?.kind === 'assistant') return 'Snowpea replied.';
  if (last?.kind === 'compaction') return `${compactionLabel(last)}.`;
  return '';
}

export function Announcer() {
  const text = useChat(announcement);
  return (
    <div className="visually-hidden" role="status" aria-live="polite">
      {text}
    </div>
  );
}
