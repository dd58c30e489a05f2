import type { HandlerTable } from '../../../extension/protocol';
import { appendItem, lastIndexWhere, replaceItemAt } from './items';
import type { Attachment, ChatState, LocalAction } from './types';

/** What the webview does on its own: one handler per local action, (action, state) -> state. */
export const localHandlers: HandlerTable<LocalAction, ChatState, ChatState> = {
  'draft.set': (a, s) => (a.text === s.draft ? s : { ...s, draft: a.text }),

  'restricted.notice': (a, s) => ({ ...s, restrictedDismissed: !a.shown }),

  'message.sent': (a, s) =>
    appendItem(
      { ...s, draft: '', attachments: [], running: true, stopping: false, loop: null },
      { kind: 'user', text: a.text, pending: true, ...(a.images?.length ? { images: a.images } : {}) },
    ),

  'message.queued': (_a, s) => ({ ...s, draft: '', attachments: [] }),

  'stop.requested': (_a, s) => (s.running ? { ...s, stopping: true } : s),

  'retry.requested': (_a, s) => {
    if (s.running) return s;
    // The error is answered: its Retry button goes. The host's turn.start (with the same prompt) makes the turn run;
    // nothing is marked running before it, so a host that cannot retry leaves no stuck Stop button.
    const index = lastIndexWhere(s.items, (i) => i.kind === 'error' && i.retryable === true);
    const item = s.items[index];
    const base: ChatState = { ...s, retrying: true, loop: null };
    return item?.kind === 'error' ? replaceItemAt(base, index, { ...item, retryable: false }) : base;
  },

  'tool.toggle': (a, s) => {
    const index = s.items.findIndex((i) => i.id === a.id);
    const item = s.items[index];
    return item?.kind === 'tool' ? replaceItemAt(s, index, { ...item, expanded: !item.expanded }) : s;
  },

  'compaction.toggle': (a, s) => {
    const index = s.items.findIndex((i) => i.id === a.id);
    const item = s.items[index];
    return item?.kind === 'compaction' ? replaceItemAt(s, index, { ...item, expanded: !item.expanded }) : s;
  },

  'loop.dismissed': (_a, s) => ({ ...s, loop: null }),

  // The toggle shows the new mode at once; the host's `mode` event (or header) confirms it.
  'mode.requested': (a, s) => ({ ...s, mode: a.mode, planReady: false }),

  'todos.toggle': (_a, s) => ({ ...s, todosCollapsed: !s.todosCollapsed }),

  // The picker opened: its list says it is loading until the host's `models.result`.
  'models.requested': (_a, s) => ({ ...s, models: { status: 'loading' } }),

  // The picker and the effort control show the pick at once; the host's `header` confirms it.
  'model.requested': (a, s) => (s.session ? { ...s, session: { ...s.session, model: a.model ?? s.session.defaultModel ?? s.session.model } } : s),
  'effort.requested': (a, s) => (s.session?.effort ? { ...s, session: { ...s.session, effort: { ...s.session.effort, picked: a.effort } } } : s),

  'approval.answered': (a, s) => ({ ...s, approvals: s.approvals.filter((r) => r.id !== a.id) }),

  'ask.answered': (a, s) => ({ ...s, asks: s.asks.filter((r) => r.id !== a.id) }),

  'budget.answered': (a, s) => ({ ...s, budgets: s.budgets.filter((r) => r.id !== a.id) }),

  'attachment.add': (a, s) => ({ ...s, attachments: [...s.attachments, { id: a.id, name: a.name, size: a.size, status: 'processing' }] }),

  // Removed while it was being prepared: the late result is dropped.
  'attachment.done': (a, s) => replaceAttachment(s, a.result.id, () => a.result),

  'attachment.remove': (a, s) => ({ ...s, attachments: s.attachments.filter((x) => x.id !== a.id) }),
};

function replaceAttachment(s: ChatState, id: string, make: (old: Attachment) => Attachment): ChatState {
  const index = s.attachments.findIndex((x) => x.id === id);
  if (index < 0) return s;
  const attachments = s.attachments.slice();
  attachments[index] = make(attachments[index] as Attachment);
  return { ...s, attachments };
}
