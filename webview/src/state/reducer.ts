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
  return settleNotices(dispatch(actionHandlers, action, state));
}

/** A closed Restricted Mode notice is forgotten once the folder is trusted: if it is ever restricted again, the notice shows again. */
function settleNotices(s: ChatState): ChatState {
  return s.restrictedDismissed && s.session?.workspaceTrusted ? { ...s, restrictedDismissed: false } : s;
}
