import type { HandlerTable } from '../../../extension/protocol';
import { appendItem } from './items';
import type { ChatState, LocalAction } from './types';

/** What the webview does on its own: one handler per local action, (action, state) -> state. */
export const localHandlers: HandlerTable<LocalAction, ChatState, ChatState> = {
  'draft.set': (a, s) => (a.text === s.draft ? s : { ...s, draft: a.text }),

  'message.sent': (a, s) =>
    appendItem(
      { ...s, draft: '', running: true, stopping: false, loop: null },
      { kind: 'user', text: a.text, pending: true, ...(a.images?.length ? { images: a.images } : {}) },
    ),

  'stop.requested': (_a, s) => (s.running ? { ...s, stopping: true } : s),

  'loop.dismissed': (_a, s) => ({ ...s, loop: null }),

  'approval.answered': (a, s) => ({ ...s, approvals: s.approvals.filter((r) => r.id !== a.id) }),

  'ask.answered': (a, s) => ({ ...s, asks: s.asks.filter((r) => r.id !== a.id) }),
};
