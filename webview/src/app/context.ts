import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Store } from '../state/store';
import type { ChatAction, ChatState } from '../state/types';
import type { ChatActions } from './actions';

export interface ChatContextValue {
  store: Store<ChatState, ChatAction>;
  actions: ChatActions;
}

export const ChatContext = createContext<ChatContextValue | null>(null);

function useChatContext(): ChatContextValue {
  const value = useContext(ChatContext);
  if (!value) throw new Error('ChatContext is missing: render inside <ChatContext.Provider>');
  return value;
}

/** Subscribes to one slice of the chat state; `select` must return a stable value (a field, not a new object). */
export function useChat<T>(select: (state: ChatState) => T): T {
  const { store } = useChatContext();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

export function useActions(): ChatActions {
  return useChatContext().actions;
}
