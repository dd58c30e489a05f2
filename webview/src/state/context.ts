import type { ChatState } from './types';

/** What a host-message or event handler gets besides the message: the state, and when it arrived. */
export interface HandlerContext {
  s: ChatState;
  /** Arrival time (ms since epoch), stamped where the message entered the webview; 0 when unknown. */
  at: number;
}
