import { STATE_VERSION, type ChatState } from './types';

export function initialState(): ChatState {
  return {
    version: STATE_VERSION,
    session: null,
    items: [],
    running: false,
    stopping: false,
    loadedTools: [],
    loop: null,
    retry: null,
    usage: null,
    approvals: [],
    asks: [],
    draft: '',
    nextId: 1,
  };
}

/**
 * Restores what `vscode.setState` saved before the view was hidden. Anything from another
 * version, or not the right shape, is dropped: the host replays the session on `ready` anyway.
 */
export function restoreState(saved: unknown): ChatState {
  const fresh = initialState();
  if (!saved || typeof saved !== 'object') return fresh;
  const s = saved as Partial<ChatState>;
  if (s.version !== STATE_VERSION || !Array.isArray(s.items) || typeof s.nextId !== 'number') return fresh;
  return { ...fresh, ...s };
}
