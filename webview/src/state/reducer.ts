import { dispatch, type HandlerTable } from '../../../extension/protocol';
import { hostHandlers } from './host-handlers';
import { localHandlers } from './local-handlers';
import type { ChatAction, ChatState } from './types';

const actionHandlers: HandlerTable<ChatAction, ChatState, ChatState> = {
  host: (a, s) => dispatch(hostHandlers, a.msg, { s, at: a.at ?? 0 }),
  ...localHandlers,
};

/** The chat's one reducer: every change goes through a table of handlers keyed by type. */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  return dispatch(actionHandlers, action, state);
}
