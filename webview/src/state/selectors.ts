import type { ChatState } from './types';

/**
 * Retry is offered on an error of the latest turn (no user message after it), when no turn
 * is running and it was not retried already.
 */
export function canRetry(s: ChatState, errorId: string): boolean {
  if (s.running) return false;
  for (let i = s.items.length - 1; i >= 0; i--) {
    const item = s.items[i];
    if (!item || item.kind === 'user') return false;
    if (item.id === errorId) return item.kind === 'error' && item.retryable === true;
  }
  return false;
}
