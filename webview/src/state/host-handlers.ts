import { dispatch, type HandlerTable, type HostMessage } from '../../../extension/protocol';
import type { HandlerContext } from './context';
import { eventHandlers } from './event-handlers';
import { appendItem, itemsFromTranscript, keepToolViewState, markPruned } from './items';
import { mergeMeter } from './meters';
import type { ChatState, TranscriptItem } from './types';

/** How each host message changes the chat: one handler per message type, (msg, {state, time}) -> state. */
export const hostHandlers: HandlerTable<HostMessage, ChatState, HandlerContext> = {
  init: (m, { s }) => {
    const sameSession = s.session?.id === m.sessionId;
    const running = m.running ?? false;
    const session = {
      id: m.sessionId,
      title: m.title,
      model: m.model,
      workspaceTrusted: m.workspaceTrusted,
      setupNeeded: m.setupNeeded,
      supportsImages: m.supportsImages ?? true,
      ...(m.defaultModel ? { defaultModel: m.defaultModel } : {}),
      ...(m.effort ? { effort: m.effort } : {}),
      ...(m.agent ? { agent: m.agent } : {}),
    };
    const base: ChatState = { ...s, session, loadedTools: [...m.loadedTools], running, stopping: running && s.stopping, mode: m.mode ?? 'code', todos: m.todos ?? [] };
    // Requests the host still waits on are re-sent after init; anything else is stale.
    const cleared: ChatState = running ? base : { ...base, approvals: [], asks: [], budgets: [], retry: null, retrying: false };
    if (sameSession) return cleared;
    return { ...cleared, items: justSent(s, m.sessionId), loop: null, retry: null, retrying: false, meters: [], nextCost: null, approvals: [], asks: [], budgets: [], planReady: false, queue: [], queueHeld: false };
  },

  header: (m, { s }) => {
    if (!s.session || s.session.id !== m.sessionId) return s;
    const { type: _type, sessionId: _id, supportsImages, mode, defaultModel, effort, agent, ...fields } = m;
    // A model without an effort control has no `effort`: the control goes; a chat back to Snowpea has no `agent`.
    const { effort: _old, defaultModel: _oldDefault, agent: _oldAgent, ...kept } = s.session;
    const session = { ...kept, ...fields, supportsImages: supportsImages ?? true, ...(defaultModel ? { defaultModel } : {}), ...(effort ? { effort } : {}), ...(agent ? { agent } : {}) };
    return { ...s, session, ...(mode ? { mode } : {}) };
  },

  event: (m, ctx) => {
    // Events of another session (a chat replaced by New Chat while still streaming) are stale.
    if (ctx.s.session && m.event.sessionId !== ctx.s.session.id) return ctx.s;
    return dispatch(eventHandlers, m.event, ctx);
  },

  transcript: (m, { s, at }) => {
    if (s.session && m.sessionId !== s.session.id) return s;
    const { items, nextId } = itemsFromTranscript(m.entries, s.running, s.nextId, at);
    return { ...s, items: keepToolViewState(s.items, items), nextId };
  },

  'approval.request': (m, { s }) => ({
    ...s,
    approvals: [
      ...s.approvals.filter((a) => a.id !== m.id),
      {
        id: m.id,
        tool: m.tool,
        summary: m.summary,
        ...(m.reason ? { reason: m.reason } : {}),
        ...(m.alwaysAsk ? { alwaysAsk: true } : {}),
        ...(m.commandPrefix ? { commandPrefix: m.commandPrefix } : {}),
        ...(m.noAlways ? { noAlways: true } : {}),
        ...(m.detail ? { detail: m.detail } : {}),
        ...(m.proposal ? { proposal: m.proposal } : {}),
      },
    ],
  }),

  'approval.settled': (m, { s }) => ({ ...s, approvals: s.approvals.filter((a) => a.id !== m.id) }),

  'budget.request': (m, { s }) => {
    const { type: _type, ...request } = m;
    return { ...s, budgets: [...s.budgets.filter((b) => b.id !== m.id), request] };
  },

  'changes.list': (m, { s }) => ({ ...s, changes: m.files }),

  commands: (m, { s }) => ({ ...s, commands: m.commands, agents: m.agents ?? [] }),

  'ask.request': (m, { s }) => ({
    ...s,
    asks: [...s.asks.filter((a) => a.id !== m.id), { id: m.id, question: m.question, ...(m.choices ? { choices: m.choices } : {}) }],
  }),

  error: (m, { s }) => appendItem(s, { kind: 'error', message: m.message }),

  queue: (m, { s }) => {
    if (s.session?.id && m.sessionId !== s.session.id) return s;
    return { ...s, queue: m.items.map((i) => ({ ...i })), queueHeld: m.held, queueDelivery: m.delivery };
  },

  notice: (m, { s }) => appendItem(s, { kind: 'notice', text: m.text }),

  meter: (m, { s }) => {
    if (s.session && m.sessionId !== s.session.id) return s;
    const { type: _type, sessionId: _id, round, prunedCalls, ...fields } = m;
    return markPruned(mergeMeter(s, round, fields), prunedCalls ?? []);
  },

  'files.result': (m, { s }) => ({ ...s, fileResults: { query: m.query, paths: m.paths } }),

  'models.result': (m, { s }) => ({ ...s, models: { status: 'done', models: m.models, ...(m.error ? { error: m.error } : {}) } }),

  // The picked image is prepared by the attach actions (a side effect, wired in main.tsx), not here.
  'composer.attach': (_m, { s }) => s,

  'composer.insert': (m, { s }) => ({ ...s, draft: s.draft && !/\s$/.test(s.draft) ? `${s.draft} ${m.text}` : `${s.draft}${m.text}` }),
};

/**
 * What a new session's init keeps of the chat: nothing, except the first message of a new chat.
 * The host names the session that message created (the chat had no id yet) before the turn's
 * events; the message, with its image chips, stays for `turn.start` to confirm.
 */
function justSent(s: ChatState, sessionId: string): TranscriptItem[] {
  const last = s.items[s.items.length - 1];
  const unnamed = !s.session?.id;
  return unnamed && sessionId && last?.kind === 'user' && last.pending ? [last] : [];
}
