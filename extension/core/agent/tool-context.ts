import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AttachmentStore } from '../images/store';
import type { TodoItem } from '../conversation/events';
import type { Session } from '../conversation/session';
import type { ApprovalMemory } from '../tools/policy/memory';
import type { ToolContext } from '../tools/types';
import { typedText } from '../input/compose';
import type { AgentOptions } from './agent-options';
import { rootOf } from './agent-parts';

/** What a tool call's context is made of besides the session. */
export interface ToolContextSources {
  opts: AgentOptions;
  live: ReadonlyMap<string, Session>;
  approvals: ApprovalMemory;
  attachments: AttachmentStore;
  supportsImages(): boolean;
  setMode(session: Session, mode: Session['mode']): void;
  setTodos(session: Session, todos: TodoItem[]): void;
}

/** The context one tool call of `session` runs in (its scratch folder is made here). */
export function sessionToolContext(src: ToolContextSources, session: Session, signal: AbortSignal, onOutput: (chunk: string) => void): ToolContext {
  const { opts } = src;
  const scratchDir = path.join(opts.scratchRoot, session.id);
  fs.mkdirSync(scratchDir, { recursive: true });
  return {
    workspaceRoot: session.workspaceRoot,
    fileReader: opts.fileReader,
    fileWriter: opts.fileWriter,
    approver: opts.approver,
    signal,
    settings: opts.settings(),
    session: { id: session.id, mode: session.mode, role: session.role, isSubagent: session.isSubagent, ...(session.customAgent ? { customAgent: session.customAgent } : {}) },
    onOutput,
    scratchDir,
    askUser: session.isSubagent ? undefined : opts.askUser,
    setMode: (mode) => src.setMode(session, mode),
    ...(session.isSubagent ? {} : { setTodos: (todos: TodoItem[]) => src.setTodos(session, todos) }),
    loadTools: (names) => {
      const added = session.loadTools(names);
      if (added.length) opts.store?.updateSession(session.id, { loadedTools: session.loadedTools });
      return added;
    },
    workspaceTrusted: opts.workspaceTrusted?.() ?? true,
    approvals: src.approvals,
    apiKey: opts.apiKey,
    watchProblems: opts.watchProblems,
    userTexts: () => userTexts(src.live, session),
    attachments: {
      supportsImages: src.supportsImages(),
      addFile: (p, o) => src.attachments.addFile(p, o),
      addBytes: (b, o) => src.attachments.addBytes(b, o),
      addBase64: (d, o) => src.attachments.addBase64(d, o),
    },
  };
}

/**
 * What the user typed in this conversation (a subagent's: its root parent's), for the browser's
 * first-visit consent and typed-only policy: their own text only, never the files `@path` and
 * --attach inlined after it (red-team N7: a README's address is not one the user typed).
 */
function userTexts(live: ReadonlyMap<string, Session>, session: Session): string[] {
  return rootOf(live, session).messages.flatMap((m) => (m.role === 'user' && !m.attachedBy ? [typedText(m.content)] : []));
}
