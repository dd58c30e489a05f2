import type { AgentEventMessage, HandlerTable, TurnEndReason } from '../../../extension/protocol';
import type { HandlerContext } from './context';
import {
  appendAssistantReasoning,
  appendAssistantText,
  appendItem,
  capTail,
  closeAssistantText,
  insertItemAt,
  lastIndexWhere,
  replaceItemAt,
  settleItems,
  toolIndex,
  updateTool,
} from './items';
import { mergeMeter } from './meters';
import type { ChatState, ToolItem, UserItem } from './types';

/** How each agent event changes the chat: one handler per event type, (event, {state, time}) -> state. */
export const eventHandlers: HandlerTable<AgentEventMessage, ChatState, HandlerContext> = {
  'turn.start': (e, { s }) => {
    const base: ChatState = { ...s, running: true, stopping: false, loop: null, retry: null, retrying: false, planReady: false };
    const pending = lastIndexWhere(base.items, (i) => i.kind === 'user' && i.pending === true);
    if (pending >= 0) {
      const { pending: _confirmed, ...confirmed } = base.items[pending] as UserItem;
      return replaceItemAt(base, pending, { ...confirmed, turn: e.turn });
    }
    const text = e.text ?? e.prompt;
    // Retry repeats the last prompt, which the transcript shows already.
    if (s.retrying && lastUserText(s) === text) return base;
    // A turn this webview did not start (another view, the palette, a waiting message, a replay): show what the user wrote.
    return text || e.images?.length ? appendItem(base, { kind: 'user', text, turn: e.turn, ...(e.images?.length ? { images: e.images } : {}) }) : base;
  },

  // A message sent during the turn, read at this step: after the step's tool cards, before the answer it leads to.
  'message.delivered': (e, { s }) =>
    appendItem(closeAssistantText(s), { kind: 'user', text: e.text, duringTurn: true, ...(e.images?.length ? { images: e.images } : {}) }),

  'round.start': (_e, { s }) => (s.retry ? { ...s, retry: null } : s),

  'text.delta': (e, { s }) => appendAssistantText(s.retry ? { ...s, retry: null } : s, e.text),

  'reasoning.delta': (e, { s }) => appendAssistantReasoning(s.retry ? { ...s, retry: null } : s, e.text),

  'tool.call': (e, { s, at }) => {
    const closed = closeAssistantText(s);
    const call = { tool: e.tool, args: e.args, title: e.title, summary: e.summary };
    if (toolIndex(closed, e.callId) >= 0) return updateTool(closed, e.callId, (t) => ({ ...t, ...call }));
    return appendItem(closed, { kind: 'tool', callId: e.callId, ...call, status: 'running', output: '', ...(at ? { startedAt: at } : {}) });
  },

  'tool.output': (e, { s }) => updateTool(s, e.callId, (t) => ({ ...t, output: capTail(t.output + e.chunk) })),

  'tool.result': (e, { s, at }) => {
    const finish: Partial<ToolItem> & Pick<ToolItem, 'status'> = {
      status: e.ok ? 'ok' : 'error',
      summary: e.summary,
      ...(e.errorCode !== undefined ? { errorCode: e.errorCode } : {}),
      ...(e.result !== undefined ? { result: e.result } : {}),
      ...(at ? { endedAt: at } : {}),
    };
    if (toolIndex(s, e.callId) >= 0) return updateTool(s, e.callId, (t) => ({ ...t, ...finish }));
    // The call was announced before this view existed (reload mid-tool): show the result anyway.
    return appendItem(closeAssistantText(s), { kind: 'tool', callId: e.callId, tool: e.tool, args: '', output: '', ...finish });
  },

  'tools.loaded': (e, { s }) => {
    const loadedTools = [...s.loadedTools, ...e.tools.filter((t) => !s.loadedTools.includes(t))];
    return appendItem({ ...s, loadedTools }, { kind: 'tools.loaded', tools: e.tools });
  },

  usage: (e, { s }) =>
    mergeMeter(s, e.round, {
      promptTokens: e.usage.promptTokens,
      cachedTokens: e.usage.cachedTokens,
      completionTokens: e.usage.completionTokens,
      ...(e.usage.estimated ? { estimated: true } : {}),
    }),

  retry: (e, { s }) => ({ ...s, retry: { attempt: e.attempt, delayMs: e.delayMs, reason: e.reason } }),

  'loop.suspected': (e, { s }) => ({ ...s, loop: { tool: e.tool, count: e.count } }),

  error: (e, { s }) =>
    appendItem(closeAssistantText(s), {
      kind: 'error',
      message: e.message,
      retryable: !notRetryable.has(e.kind ?? ''),
      ...(e.kind ? { errorKind: e.kind } : {}),
    }),

  compaction: (e, { s }) => {
    const closed = closeAssistantText(s);
    const divider = {
      kind: 'compaction' as const,
      trigger: e.trigger,
      tokensBefore: e.tokensBefore,
      tokensAfter: e.tokensAfter,
      rounds: e.rounds,
      summary: e.summary,
      ...(e.focus ? { focus: e.focus } : {}),
      ...(e.failure ? { failure: e.failure } : {}),
    };
    // A message sent during /compact waits for it: the divider goes before it, where a replay has it.
    const last = closed.items.length - 1;
    const waiting = closed.items[last]?.kind === 'user' && (closed.items[last] as UserItem).pending === true;
    return waiting ? insertItemAt(closed, last, divider) : appendItem(closed, divider);
  },

  'cost.next': (e, { s }) => {
    const { type: _type, sessionId: _id, ...next } = e;
    return { ...s, nextCost: next };
  },

  'budget.notice': (e, { s }) => appendItem(closeAssistantText(s), { kind: 'notice', text: e.text }),

  mode: (e, { s }) => ({ ...s, mode: e.mode, planReady: false }),

  todos: (e, { s }) => ({ ...s, todos: e.todos }),

  'turn.end': (e, { s, at }) => {
    // A plan-mode turn that answered offers "Approve plan"; a stopped or failed one does not.
    const planReady = e.reason === 'done' && s.mode === 'plan';
    const settled: ChatState = { ...settleItems(s, at), running: false, stopping: false, retry: null, retrying: false, approvals: [], asks: [], budgets: [], planReady };
    const note = turnEndNotes[e.reason]?.(e.rounds);
    return note ? appendItem(settled, { kind: 'notice', text: note }) : settled;
  },
};

function lastUserText(s: ChatState): string | undefined {
  const i = lastIndexWhere(s.items, (item) => item.kind === 'user');
  const item = s.items[i];
  return item?.kind === 'user' ? item.text : undefined;
}

/** Errors that running the same prompt again would not help with (every provider error may: a key set since, a server back up). */
const notRetryable = new Set(['max_rounds', 'cancelled', 'budget']);

/** A quiet line for turns that did not simply finish. */
const turnEndNotes: Partial<Record<TurnEndReason, (rounds: number) => string>> = {
  cancelled: () => 'Stopped.',
  max_rounds: (rounds) => `Stopped after ${rounds} rounds (the round limit).`,
};
