import type { Message } from '../../agent/messages';
import { latestCompaction } from './view';

export interface CutChoice {
  /** First transcript index requests keep whole. */
  cut: number;
  /** The running turn's prompt, when it lies before the cut. */
  pinned?: number;
  /** Assistant messages (model rounds) before the cut. */
  rounds: number;
}

/**
 * Where to cut a transcript for compaction: keep the newest `keepRounds` model rounds whole (fewer
 * while `fits(cut)` says the kept part is too big), summarize everything before. A cut always
 * falls on a round's start (an assistant message, or the user prompt just before it), so no tool
 * result is parted from its call; undefined when nothing is left to summarize since the last
 * compaction.
 */
export function chooseCut(messages: readonly Message[], keepRounds: number, fits: (cut: number) => boolean): CutChoice | undefined {
  const start = latestCompaction(messages)?.message.compaction.cut ?? 0;
  const assistants: number[] = [];
  for (let i = start; i < messages.length; i++) if (messages[i].role === 'assistant') assistants.push(i);
  if (!assistants.length) return undefined;
  let cut = messages.length;
  for (let k = Math.min(keepRounds, assistants.length - 1); k >= 0; k--) {
    cut = k === 0 ? messages.length : assistants[assistants.length - k];
    const before = messages[cut - 1];
    if (k > 0 && before?.role === 'user' && !before.attachedBy && cut - 1 > assistants[0]) cut--;
    if (fits(cut)) break;
  }
  let prompt = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user' && !m.attachedBy) {
      prompt = i;
      break;
    }
  }
  let rounds = 0;
  for (let i = 0; i < cut; i++) if (messages[i].role === 'assistant') rounds++;
  return { cut, ...(prompt >= 0 && prompt < cut ? { pinned: prompt } : {}), rounds };
}
