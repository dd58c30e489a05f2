import type { Store } from './store';
import type { ChatAction, ChatState } from './types';

/** How often, at most, the state is written while it changes (streaming changes it a lot). */
const WRITE_EVERY_MS = 100;

/**
 * Saves the chat state with vscode.setState so it survives the view being hidden and shown
 * (no retainContextWhenHidden). Writes are throttled while streaming and flushed at once when
 * the page is being hidden or unloaded. Returns a function that stops persisting.
 */
export function persistState(store: Store<ChatState, ChatAction>, save: (state: ChatState) => void, doc: Document = document): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saved: ChatState | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const state = store.getState();
    if (state === saved) return;
    saved = state;
    save(state);
  };
  const unsubscribe = store.subscribe(() => {
    if (timer === undefined) timer = setTimeout(flush, WRITE_EVERY_MS);
  });
  const onHide = () => {
    if (doc.visibilityState === 'hidden') flush();
  };
  const view = doc.defaultView;
  doc.addEventListener('visibilitychange', onHide);
  view?.addEventListener('pagehide', flush);
  return () => {
    flush();
    unsubscribe();
    doc.removeEventListener('visibilitychange', onHide);
    view?.removeEventListener('pagehide', flush);
  };
}
