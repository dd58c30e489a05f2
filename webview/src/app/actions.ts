import type { ApprovalDecision } from '../../../extension/protocol';
import type { Bridge } from '../bridge/vscode-api';
import type { Store } from '../state/store';
import type { ChatAction, ChatState } from '../state/types';

/** What the UI can do: each updates the local state and/or tells the host, never both by hand in a component. */
export interface ChatActions {
  setDraft(text: string): void;
  /** Sends the draft; returns false when there was nothing to send or a turn is running. */
  send(): boolean;
  stop(): void;
  newChat(): void;
  dismissLoop(): void;
  replyApproval(id: string, decision: ApprovalDecision): void;
  replyAsk(id: string, answer: string): void;
}

export function createChatActions(store: Store<ChatState, ChatAction>, bridge: Pick<Bridge, 'post'>): ChatActions {
  return {
    setDraft: (text) => store.dispatch({ type: 'draft.set', text }),
    send() {
      const { draft, running } = store.getState();
      const text = draft.trim();
      if (!text || running) return false;
      if (!bridge.post({ type: 'send', text })) return false;
      store.dispatch({ type: 'message.sent', text });
      return true;
    },
    stop() {
      if (!store.getState().running) return;
      bridge.post({ type: 'stop' });
      store.dispatch({ type: 'stop.requested' });
    },
    newChat: () => void bridge.post({ type: 'newChat' }),
    dismissLoop: () => store.dispatch({ type: 'loop.dismissed' }),
    replyApproval(id, decision) {
      bridge.post({ type: 'approval.reply', id, decision });
      store.dispatch({ type: 'approval.answered', id });
    },
    replyAsk(id, answer) {
      bridge.post({ type: 'ask.reply', id, answer });
      store.dispatch({ type: 'ask.answered', id });
    },
  };
}
