import { isTurnPrompt, type Message } from '../../conversation/messages';
import { viewCompaction, viewEntries } from './view';

export interface CutChoice {
  /** First transcript index requests keep whole. */
  cut: number;
  /** The latest prompt of the user, when it lies before the cut (requests keep it verbatim). */
  pinned?: number;
  /** Model rounds the summary stands for: those before the cut, and those an earlier summary stood for. */
  rounds: number;
}

/**
 * Where to cut a transcript for compaction: keep the newest `keepRounds` model rounds of the
 * request whole (fewer while `fits(cut)` says the kept part is too big), summarize everything
 * before. A cut always falls on a round's start (an assistant message, or the user prompt just
 * before it), so no tool result is parted from its call; undefined when the request has no model
 * round to summarize.
 */
export function chooseCut(messages: readonly Message[], keepRounds: number, fits: (cut: number) => boolean): CutChoice | undefined {
  const view = viewEntries(messages);
  const earlier = viewCompaction(view)?.compaction.rounds ?? 0;
  const assistants = view.flatMap((e, k) => (e.message.role === 'assistant' ? [k] : []));
  if (!assistants.length) return undefined;
  let at = view.length;
  for (let n = Math.min(keepRounds, assistants.length - 1); n >= 0; n--) {
    at = n === 0 ? view.length : assistants[assistants.length - n];
    const before = view[at - 1]?.message;
    if (n > 0 && before?.role === 'user' && !before.attachedBy && at - 1 > assistants[0]) at--;
    if (fits(at < view.length ? view[at].index : messages.length)) break;
  }
  const cut = at < view.length ? view[at].index : messages.length;
  // The user's latest prompt stays verbatim: pinned when the cut would summarize it.
  let prompt = -1;
  for (let k = view.length - 1; k >= 0 && prompt < 0; k--) {
    const m = view[k].message;
    if (isTurnPrompt(m)) prompt = k;
  }
  const pinned = prompt >= 0 && prompt < at ? view[prompt].index : undefined;
  const rounds = earlier + view.slice(0, at).filter((e) => e.message.role === 'assistant').length;
  return { cut, ...(pinned !== undefined ? { pinned } : {}), rounds };
}
