import { STATE_VERSION, type Attachment, type ChatState } from './types';

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
    meters: [],
    approvals: [],
    asks: [],
    budgets: [],
    nextCost: null,
    changes: [],
    draft: '',
    attachments: [],
    fileResults: null,
    models: null,
    retrying: false,
    nextId: 1,
    mode: 'code',
    todos: [],
    planReady: false,
    todosCollapsed: false,
    queue: [],
    queueHeld: false,
    queueDelivery: 'steer',
    commands: [],
    agents: [],
  };
}

/** An image still being prepared when the page went away cannot finish: say so on its thumbnail. */
function settleAttachment(a: Attachment): Attachment {
  if (a.status !== 'processing') return a;
  return { id: a.id, name: a.name, size: a.size, status: 'error', error: `${a.name} was still being prepared when the view closed; add it again.` };
}

/**
 * Restores what `vscode.setState` saved before the view was hidden. Anything from another
 * version, or not the right shape, is dropped: the host replays the session on `ready` anyway.
 * Fields added since the state was saved take their initial values.
 */
export function restoreState(saved: unknown): ChatState {
  const fresh = initialState();
  if (!saved || typeof saved !== 'object') return fresh;
  const s = saved as Partial<ChatState>;
  if (s.version !== STATE_VERSION || !Array.isArray(s.items) || typeof s.nextId !== 'number') return fresh;
  const restored: ChatState = { ...fresh, ...s, fileResults: null, models: null };
  if (restored.session) restored.session = { ...restored.session, supportsImages: restored.session.supportsImages ?? true };
  if (!Array.isArray(restored.attachments)) restored.attachments = [];
  else restored.attachments = restored.attachments.map(settleAttachment);
  if (!Array.isArray(restored.meters)) restored.meters = [];
  if (!Array.isArray(restored.changes)) restored.changes = [];
  if (!Array.isArray(restored.todos)) restored.todos = [];
  if (!Array.isArray(restored.budgets)) restored.budgets = [];
  if (!Array.isArray(restored.queue)) restored.queue = [];
  if (!Array.isArray(restored.commands)) restored.commands = [];
  if (!Array.isArray(restored.agents)) restored.agents = [];
  return restored;
}
