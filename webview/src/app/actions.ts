import type { ApprovalDecision, Delivery, Effort, ImageMeta, WebviewMessage } from '../../../extension/protocol';
import type { Bridge } from '../bridge/vscode-api';
import type { Store } from '../state/store';
import type { ChatAction, ChatState } from '../state/types';
import { createAttachActions, type AttachActions } from './attach-actions';
import { parseSlashCommand } from './slash-commands';

/** What the UI can do: each updates the local state and/or tells the host, never both by hand in a component. */
export interface ChatActions extends AttachActions {
  setDraft(text: string): void;
  /**
   * Sends the draft and its ready images; false when there was nothing to send, Stop was pressed or
   * an image is still being prepared. While a turn runs the message waits in the host's queue (read
   * at the turn's next step, or sent when it ends: the setting, switchable per message).
   * `/compact [focus]` asks the host to compact the conversation instead (even while a turn runs:
   * the host says why it cannot); attached images stay. `/plan [message]` and `/act [message]`
   * switch the mode, then send the message if there is one.
   */
  send(): boolean;
  /** A waiting message: new text, removed, its delivery switched, or sent now. */
  editQueued(id: string, text: string): void;
  removeQueued(id: string): void;
  setQueuedDelivery(id: string, delivery: Delivery): void;
  sendQueuedNow(id: string): void;
  stop(): void;
  /** The plan toggle, `/plan`, `/act`: plan mode (read-only) or act mode (code: every tool). */
  setMode(mode: 'code' | 'plan'): void;
  /** `/agent NAME` and the agent chip's close: the chat runs as that custom agent (null: as Snowpea). */
  setAgent(name: string | null): void;
  /** "Approve plan": after a plan-mode turn, switch to act mode and have the model carry the plan out. */
  approvePlan(): void;
  /** Folds or unfolds the pinned todo list. */
  toggleTodos(): void;
  newChat(): void;
  /** Opens the host's session history (Resume Session). */
  history(): void;
  /** Runs the last prompt again after a provider error. */
  retry(): void;
  /** A setup card button: Set API Key, Select Model, Open Settings or Manage Workspace Trust in the host. */
  runCommand(command: 'snowpea.setApiKey' | 'snowpea.selectModel' | 'snowpea.openSettings' | 'workbench.trust.manage'): void;
  dismissLoop(): void;
  /** Closes or reopens the Restricted Mode notice (remembered in the view's saved state). */
  showRestrictedNotice(shown: boolean): void;
  toggleTool(id: string): void;
  /** Opens or closes a compaction divider's summary. */
  toggleCompaction(id: string): void;
  replyApproval(id: string, decision: ApprovalDecision): void;
  replyAsk(id: string, answer: string): void;
  /** The budget card: continue once, stop, or raise the budgets that were passed (`turn`, `session`: the new amounts). */
  replyBudget(id: string, answer: BudgetReply): void;
  /** The changed-files list: keep or undo one file (as listed) or, without a path, all; open a file's diff. */
  keepChanges(path?: string): void;
  undoChanges(path?: string): void;
  openChange(path: string): void;
  /** One hunk of a listed file (`key` as listed): keep it, or put its old lines back. */
  keepHunk(path: string, key: string): void;
  undoHunk(path: string, key: string): void;
  insertCode(code: string, language?: string): void;
  /** A user message's restore action: files back to before the message of `turn`; `rewind` takes the conversation back too (the host confirms first). */
  restoreCheckpoint(turn: number, rewind: boolean): void;
  /** Asks the host for workspace files matching `query` (the `@` popup); repeated queries are not re-sent. */
  queryFiles(query: string): void;
  /** The popup closed: the next query is sent even if it repeats the last one (files may have changed). */
  endFileQuery(): void;
  /** The model picker opened: asks the host for the provider's models. */
  listModels(): void;
  /** The model picker: the session's model for its next request (null: back to the model.name setting). */
  pickModel(model: string | null): void;
  /** The effort control: the session's reasoning effort (null: the default). */
  pickEffort(effort: Effort | null): void;
}

/** A budget card's answer as it goes to the host. */
export type BudgetReply = Omit<Extract<WebviewMessage, { type: 'budget.reply' }>, 'type' | 'id'>;

export function createChatActions(store: Store<ChatState, ChatAction>, bridge: Pick<Bridge, 'post'>, attach = createAttachActions(store)): ChatActions {
  let lastQuery: string | undefined;
  const setMode = (mode: 'code' | 'plan') => {
    if (store.getState().mode === mode) return;
    if (bridge.post({ type: 'mode.set', mode })) store.dispatch({ type: 'mode.requested', mode });
  };
  return {
    ...attach,
    setDraft: (text) => store.dispatch({ type: 'draft.set', text }),
    send() {
      const { draft, running, stopping, attachments } = store.getState();
      const slash = parseSlashCommand(draft, store.getState().agents.map((a) => a.name));
      if (slash?.command === 'compact') {
        if (!bridge.post({ type: 'compact', ...(slash.focus ? { focus: slash.focus } : {}) })) return false;
        store.dispatch({ type: 'draft.set', text: '' });
        return true;
      }
      if (slash) {
        // `/plan` and `/act` switch the mode, `/agent` the agent; a message after them is sent in the new mode or as the agent.
        if (slash.command === 'agent') bridge.post({ type: 'agent.set', name: slash.name ?? null });
        else setMode(slash.command === 'plan' ? 'plan' : 'code');
        if (!slash.message) {
          store.dispatch({ type: 'draft.set', text: '' });
          return true;
        }
      }
      if (stopping || attachments.some((a) => a.status === 'processing')) return false;
      const images = attachments.flatMap((a) => (a.status === 'ready' ? [a.image] : []));
      const text = slash?.message ?? draft.trim();
      if (!text && !images.length) return false;
      if (!bridge.post({ type: 'send', text, ...(images.length ? { images } : {}) })) return false;
      if (running) {
        store.dispatch({ type: 'message.queued' });
        return true;
      }
      const meta: ImageMeta[] = images.map(({ name, mime, width, height }) => ({ name, mime, width, height }));
      store.dispatch({ type: 'message.sent', text, ...(meta.length ? { images: meta } : {}) });
      return true;
    },
    editQueued: (id, text) => void bridge.post({ type: 'queue.edit', id, text }),
    removeQueued: (id) => void bridge.post({ type: 'queue.remove', id }),
    setQueuedDelivery: (id, delivery) => void bridge.post({ type: 'queue.delivery', id, delivery }),
    sendQueuedNow: (id) => void bridge.post({ type: 'queue.sendNow', id }),
    stop() {
      if (!store.getState().running) return;
      bridge.post({ type: 'stop' });
      store.dispatch({ type: 'stop.requested' });
    },
    setMode,
    setAgent: (name) => void bridge.post({ type: 'agent.set', name }),
    approvePlan() {
      const { running, mode, planReady } = store.getState();
      if (running || mode !== 'plan' || !planReady) return;
      if (bridge.post({ type: 'plan.approve' })) store.dispatch({ type: 'mode.requested', mode: 'code' });
    },
    toggleTodos: () => store.dispatch({ type: 'todos.toggle' }),
    newChat: () => void bridge.post({ type: 'newChat' }),
    history: () => void bridge.post({ type: 'history' }),
    runCommand: (command) => void bridge.post({ type: 'runCommand', command }),
    retry() {
      if (store.getState().running) return;
      if (bridge.post({ type: 'retry' })) store.dispatch({ type: 'retry.requested' });
    },
    dismissLoop: () => store.dispatch({ type: 'loop.dismissed' }),
    showRestrictedNotice: (shown) => store.dispatch({ type: 'restricted.notice', shown }),
    toggleTool: (id) => store.dispatch({ type: 'tool.toggle', id }),
    toggleCompaction: (id) => store.dispatch({ type: 'compaction.toggle', id }),
    replyApproval(id, decision) {
      bridge.post({ type: 'approval.reply', id, decision });
      store.dispatch({ type: 'approval.answered', id });
    },
    replyAsk(id, answer) {
      bridge.post({ type: 'ask.reply', id, answer });
      store.dispatch({ type: 'ask.answered', id });
    },
    replyBudget(id, answer) {
      if (bridge.post({ type: 'budget.reply', id, ...answer })) store.dispatch({ type: 'budget.answered', id });
    },
    keepChanges: (path) => void bridge.post({ type: 'changes.keep', ...(path === undefined ? {} : { path }) }),
    undoChanges: (path) => void bridge.post({ type: 'changes.undo', ...(path === undefined ? {} : { path }) }),
    openChange: (path) => void bridge.post({ type: 'changes.open', path }),
    keepHunk: (path, key) => void bridge.post({ type: 'changes.keepHunk', path, key }),
    undoHunk: (path, key) => void bridge.post({ type: 'changes.undoHunk', path, key }),
    insertCode: (code, language) => void bridge.post({ type: 'insertCode', code, ...(language ? { language } : {}) }),
    restoreCheckpoint(turn, rewind) {
      const session = store.getState().session;
      if (session?.id && !store.getState().running) bridge.post({ type: 'checkpoint.restore', sessionId: session.id, turn, rewind });
    },
    queryFiles(query) {
      if (query === lastQuery) return;
      lastQuery = query;
      bridge.post({ type: 'files.query', query });
    },
    endFileQuery() {
      lastQuery = undefined;
    },
    listModels() {
      if (bridge.post({ type: 'models.list' })) store.dispatch({ type: 'models.requested' });
    },
    pickModel(model) {
      if (bridge.post({ type: 'model.set', model })) store.dispatch({ type: 'model.requested', model });
    },
    pickEffort(effort) {
      if (bridge.post({ type: 'effort.set', effort })) store.dispatch({ type: 'effort.requested', effort });
    },
  };
}
