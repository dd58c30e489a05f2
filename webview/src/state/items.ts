import type { TranscriptEntry } from '../../../extension/protocol';
import type { AssistantItem, ChatState, ToolItem, TranscriptItem } from './types';

/** Immutable helpers over the transcript items; every handler goes through these. */

/** Streamed tool output kept per card (the tail); the full result lives in the host. */
export const TOOL_OUTPUT_CAP = 16 * 1024;

type NewItem = TranscriptItem extends infer T ? (T extends TranscriptItem ? Omit<T, 'id'> : never) : never;

export function appendItem(state: ChatState, item: NewItem): ChatState {
  const withId = { ...item, id: `i${state.nextId}` } as TranscriptItem;
  return { ...state, items: [...state.items, withId], nextId: state.nextId + 1 };
}

/** Inserts before `index` (as appendItem would append). */
export function insertItemAt(state: ChatState, index: number, item: NewItem): ChatState {
  const withId = { ...item, id: `i${state.nextId}` } as TranscriptItem;
  return { ...state, items: [...state.items.slice(0, index), withId, ...state.items.slice(index)], nextId: state.nextId + 1 };
}

export function replaceItemAt(state: ChatState, index: number, item: TranscriptItem): ChatState {
  const items = state.items.slice();
  items[index] = item;
  return { ...state, items };
}

export function lastIndexWhere(items: TranscriptItem[], pred: (i: TranscriptItem) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i] as TranscriptItem)) return i;
  return -1;
}

export function toolIndex(state: ChatState, callId: string): number {
  return lastIndexWhere(state.items, (i) => i.kind === 'tool' && i.callId === callId);
}

/** Appends streamed text to the assistant message being written, or starts a new one. */
export function appendAssistantText(state: ChatState, text: string): ChatState {
  const last = state.items[state.items.length - 1];
  if (last && last.kind === 'assistant' && last.streaming) {
    return replaceItemAt(state, state.items.length - 1, { ...last, text: last.text + text });
  }
  return appendItem(state, { kind: 'assistant', text, streaming: true });
}

/** Appends streamed reasoning to the assistant message being written, or starts a new one (its answer still to come). */
export function appendAssistantReasoning(state: ChatState, reasoning: string): ChatState {
  const last = state.items[state.items.length - 1];
  if (last && last.kind === 'assistant' && last.streaming) {
    return replaceItemAt(state, state.items.length - 1, { ...last, reasoning: (last.reasoning ?? '') + reasoning });
  }
  return appendItem(state, { kind: 'assistant', text: '', reasoning, streaming: true });
}

/** Ends the streaming assistant message, if any (a tool call or the turn's end closes it). */
export function closeAssistantText(state: ChatState): ChatState {
  const last = state.items[state.items.length - 1];
  if (!last || last.kind !== 'assistant' || !last.streaming) return state;
  const closed: AssistantItem = { ...last, streaming: false };
  return replaceItemAt(state, state.items.length - 1, closed);
}

export function updateTool(state: ChatState, callId: string, update: (t: ToolItem) => ToolItem): ChatState {
  const index = toolIndex(state, callId);
  if (index < 0) return state;
  return replaceItemAt(state, index, update(state.items[index] as ToolItem));
}

export function capTail(text: string, cap = TOOL_OUTPUT_CAP): string {
  return text.length > cap ? text.slice(text.length - cap) : text;
}

/** Marks every unfinished tool card and streaming message as finished (turn over at `at`). */
export function settleItems(state: ChatState, at = 0): ChatState {
  let changed = false;
  const items = state.items.map((item): TranscriptItem => {
    if (item.kind === 'tool' && item.status === 'running') {
      changed = true;
      return { ...item, status: 'stopped', ...(at ? { endedAt: at } : {}) };
    }
    if (item.kind === 'assistant' && item.streaming) {
      changed = true;
      return { ...item, streaming: false };
    }
    return item;
  });
  return changed ? { ...state, items } : state;
}

/**
 * Builds transcript items from a replayed session. A call still running is timed from `at`
 * (when the replay arrived): the view cannot know when it really started.
 */
export function itemsFromTranscript(entries: TranscriptEntry[], running: boolean, firstId: number, at = 0): { items: TranscriptItem[]; nextId: number } {
  let next = firstId;
  const id = () => `i${next++}`;
  const items = entries.map((e): TranscriptItem => {
    if (e.role === 'user') return { kind: 'user', id: id(), text: e.text, ...(e.images ? { images: e.images } : {}), ...(e.turn ? { turn: e.turn } : {}), ...(e.duringTurn ? { duringTurn: true } : {}) };
    if (e.role === 'assistant') return { kind: 'assistant', id: id(), text: e.text, ...(e.reasoning ? { reasoning: e.reasoning } : {}), streaming: false };
    if (e.role === 'tools.loaded') return { kind: 'tools.loaded', id: id(), tools: e.tools };
    if (e.role === 'compaction') {
      const { role: _role, ...divider } = e;
      return { kind: 'compaction', id: id(), ...divider };
    }
    const status = e.ok === undefined ? (running ? 'running' : 'stopped') : e.ok ? 'ok' : 'error';
    return {
      kind: 'tool',
      id: id(),
      callId: e.callId,
      tool: e.tool,
      args: e.args,
      title: e.title,
      status,
      summary: e.summary,
      output: '',
      ...(e.result !== undefined ? { result: e.result } : {}),
      ...(e.errorCode !== undefined ? { errorCode: e.errorCode } : {}),
      ...(status === 'running' && at ? { startedAt: at } : {}),
    };
  });
  return { items, nextId: next };
}

/**
 * A replay rebuilds the items; tool cards the reader had opened stay open, a running call
 * keeps the start time this view saw (more exact than the replay's arrival), and a pruned
 * result stays pruned (the replay carries the stored result, never the stub).
 */
export function keepToolViewState(before: TranscriptItem[], after: TranscriptItem[]): TranscriptItem[] {
  const seen = new Map<string, ToolItem>();
  for (const item of before) {
    if (item.kind === 'tool' && (item.expanded || item.startedAt !== undefined || item.prunedStub !== undefined)) seen.set(item.callId, item);
  }
  if (!seen.size) return after;
  return after.map((item) => {
    const old = item.kind === 'tool' ? seen.get(item.callId) : undefined;
    if (!old || item.kind !== 'tool') return item;
    return {
      ...item,
      ...(old.expanded ? { expanded: true } : {}),
      ...(old.startedAt !== undefined ? { startedAt: old.startedAt } : {}),
      ...(old.endedAt !== undefined && item.status !== 'running' ? { endedAt: old.endedAt } : {}),
      ...(old.prunedStub !== undefined ? { prunedStub: old.prunedStub } : {}),
    };
  });
}

/**
 * Marks the tool cards whose results a request carried as pruning stubs. Pruning only grows,
 * so a card is never unmarked: a call missing from a later list keeps its mark.
 */
export function markPruned(state: ChatState, calls: Array<{ callId: string; stub: string }>): ChatState {
  if (!calls.length) return state;
  const stubs = new Map(calls.map((c) => [c.callId, c.stub]));
  let changed = false;
  const items = state.items.map((item): TranscriptItem => {
    const stub = item.kind === 'tool' ? stubs.get(item.callId) : undefined;
    if (stub === undefined || item.kind !== 'tool' || item.prunedStub === stub) return item;
    changed = true;
    return { ...item, prunedStub: stub };
  });
  return changed ? { ...state, items } : state;
}
