import { Session } from '../conversation/session';
import type { AgentStore } from './agent-options';

/** Stores a new session's row in state.db (subagents' rows link to their parent). */
export function storeNewSession(store: AgentStore | undefined, session: Session): void {
  store?.createSession({
    id: session.id,
    parentId: session.parentId ?? null,
    title: session.title,
    workspaceRoot: session.workspaceRoot,
    mode: session.mode,
    role: session.role,
    loadedTools: session.loadedTools,
    modelChoice: session.modelChoice,
  });
}

/** A stored session with its full transcript, as a resumed turn continues it; undefined when state.db has no such session. */
export function loadStoredSession(store: AgentStore | undefined, id: string): Session | undefined {
  const rec = store?.getSession(id);
  if (!rec) return undefined;
  return new Session({
    id: rec.id,
    title: rec.title,
    workspaceRoot: rec.workspaceRoot,
    mode: rec.mode,
    role: rec.role,
    parentId: rec.parentId ?? undefined,
    loadedTools: rec.loadedTools,
    todos: rec.todos ?? [],
    modelChoice: rec.modelChoice ?? {},
    messages: store!.getMessages(id),
    created: rec.created,
  });
}
