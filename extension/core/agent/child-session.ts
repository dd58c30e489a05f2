import type { Message } from '../conversation/messages';
import { Session, type SessionAgent } from '../conversation/session';
import type { CustomAgent } from '../library';

/** delegate_task's request as the agent runs it. */
export interface ChildRequest {
  task: string;
  agent: string;
  maxRounds: number;
}

/**
 * A delegated task's session: linked to its parent, an empty history, the parent's mode (a
 * plan/ask parent gets a read-only child: a child never has more power than its parent), and a
 * custom agent's instructions and tool limits when `custom` is one.
 */
export function childSession(parentId: string, parent: Session | undefined, req: ChildRequest, custom: CustomAgent | undefined, workspaceRoot: string): Session {
  return new Session({
    ...(custom ? { customAgent: asSessionAgent(custom) } : {}),
    workspaceRoot: parent?.workspaceRoot ?? workspaceRoot,
    parentId,
    isSubagent: true,
    role: custom?.name ?? req.agent,
    mode: parent?.mode ?? 'code',
    title: `${req.agent}: ${req.task.replace(/\s+/g, ' ').slice(0, 70)}`,
    budgetRounds: req.maxRounds,
  });
}

/** What a session keeps of a custom agent's file: its name, instructions and tool limits. */
export function asSessionAgent(custom: CustomAgent): SessionAgent {
  return { name: custom.name, instructions: custom.instructions, ...(custom.tools ? { tools: custom.tools } : {}), ...(custom.deniedTools ? { deniedTools: custom.deniedTools } : {}) };
}

/** How many times each tool was called in a child's messages (its delegate_task card). */
export function toolCounts(messages: readonly Message[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) counts[c.name] = (counts[c.name] ?? 0) + 1;
  return counts;
}
