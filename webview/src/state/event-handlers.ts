import type { AgentEventMessage, HandlerTable, TurnEndReason } from '../../../extension/protocol';
import {
  appendAssistantText,
  appendItem,
  capTail,
  closeAssistantText,
  lastIndexWhere,
  replaceItemAt,
  settleItems,
  toolIndex,
  updateTool,
} from './items';
import type { ChatState, UserItem } from './types';

/** How each agent event changes the chat: one handler per event type, (event, state) -> state. */
export const eventHandlers: HandlerTable<AgentEventMessage, ChatState, ChatState> = {
  'turn.start': (e, s) => {
    const base: ChatState = { ...s, running: true, stopping: false, loop: null, retry: null };
    const pending = lastIndexWhere(base.items, (i) => i.kind === 'user' && i.pending === true);
    if (pending >= 0) {
      const { pending: _confirmed, ...confirmed } = base.items[pending] as UserItem;
      return replaceItemAt(base, pending, confirmed);
    }
    // A turn this webview did not start (another view, the palette, a replay): show its prompt.
    return e.prompt ? appendItem(base, { kind: 'user', text: e.prompt }) : base;
  },

  'round.start': (_e, s) => (s.retry ? { ...s, retry: null } : s),

  'text.delta': (e, s) => appendAssistantText(s.retry ? { ...s, retry: null } : s, e.text),

  'tool.call': (e, s) => {
    const closed = closeAssistantText(s);
    if (toolIndex(closed, e.callId) >= 0) return updateTool(closed, e.callId, (t) => ({ ...t, tool: e.tool, args: e.args }));
    return appendItem(closed, { kind: 'tool', callId: e.callId, tool: e.tool, args: e.args, status: 'running', output: '' });
  },

  'tool.output': (e, s) => updateTool(s, e.callId, (t) => ({ ...t, output: capTail(t.output + e.chunk) })),

  'tool.result': (e, s) => {
    const status = e.ok ? 'ok' : 'error';
    const finish = { status, summary: e.summary, ...(e.errorCode !== undefined ? { errorCode: e.errorCode } : {}) } as const;
    if (toolIndex(s, e.callId) >= 0) return updateTool(s, e.callId, (t) => ({ ...t, ...finish }));
    // The call was announced before this view existed (reload mid-tool): show the result anyway.
    return appendItem(closeAssistantText(s), { kind: 'tool', callId: e.callId, tool: e.tool, args: '', output: '', ...finish });
  },

  'tools.loaded': (e, s) => {
    const loadedTools = [...s.loadedTools, ...e.tools.filter((t) => !s.loadedTools.includes(t))];
    return appendItem({ ...s, loadedTools }, { kind: 'tools.loaded', tools: e.tools });
  },

  usage: (e, s) => ({ ...s, usage: { ...e.usage, round: e.round } }),

  retry: (e, s) => ({ ...s, retry: { attempt: e.attempt, delayMs: e.delayMs, reason: e.reason } }),

  'loop.suspected': (e, s) => ({ ...s, loop: { tool: e.tool, count: e.count } }),

  error: (e, s) => appendItem(closeAssistantText(s), { kind: 'error', message: e.message, ...(e.kind ? { errorKind: e.kind } : {}) }),

  'turn.end': (e, s) => {
    const settled: ChatState = { ...settleItems(s), running: false, stopping: false, retry: null, approvals: [], asks: [] };
    const note = turnEndNotes[e.reason]?.(e.rounds);
    return note ? appendItem(settled, { kind: 'notice', text: note }) : settled;
  },
};

/** A quiet line for turns that did not simply finish. */
const turnEndNotes: Partial<Record<TurnEndReason, (rounds: number) => string>> = {
  cancelled: () => 'Stopped.',
  max_rounds: (rounds) => `Stopped after ${rounds} rounds (the round limit).`,
};
