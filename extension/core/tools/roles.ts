import { READ_ONLY_EAGER } from './deferred';
import { TOOL } from './names';

/** An agent definition for delegate_task (general, explore, reviewer: docs/design.md, Subagents). */
export interface RoleDef {
  name: string;
  /** Read-only roles get the narrowed eager set and never write. */
  readOnly?: boolean;
  /** The tools such a role gets up front (the narrowed eager set). */
  eager?: readonly string[];
  /** Tools without the readOnly trait a read-only role may still call (shell: its commands are ruled and asked as the parent's are). */
  keeps?: readonly string[];
  /** Tools the role requires eagerly (allowed_tools). */
  requiredTools?: string[];
  /** The role's persona/instructions, kept in lean child context. */
  instructions: string;
  /** A custom agent's tools (names and `prefix*` patterns): the only ones it may have. */
  tools?: readonly string[];
  /** A custom agent's tools taken away. */
  deniedTools?: readonly string[];
}

const ROLES: Record<string, RoleDef> = {
  default: { name: 'default', instructions: '' },
  general: { name: 'general', instructions: 'You are a subagent working on one delegated task. Finish it and answer with what the parent needs: results, file paths, and anything you could not verify.' },
  explore: {
    name: 'explore',
    readOnly: true,
    eager: READ_ONLY_EAGER,
    keeps: [TOOL.shell],
    instructions: 'You are a read-only explorer. Find and read what the task asks about and report concise findings with file paths and line numbers. Do not change files.',
  },
  reviewer: {
    name: 'reviewer',
    readOnly: true,
    eager: READ_ONLY_EAGER,
    keeps: [TOOL.shell],
    instructions: 'You are a read-only reviewer. Review the code the task names for bugs, risks and missed cases; report findings ordered by severity with file paths and line numbers. Do not change files.',
  },
};

export function roleOf(name: string): RoleDef {
  return ROLES[name] ?? ROLES.default;
}

export function roleNames(): string[] {
  return Object.keys(ROLES).filter((n) => n !== 'default');
}

/**
 * A session's role: its custom agent when it runs as one (a subagent's instructions start with the
 * general subagent line; the chat's do not), else the built-in role it names.
 */
export function sessionRole(session: { role: string; isSubagent?: boolean; customAgent?: { name: string; instructions: string; tools?: readonly string[]; deniedTools?: readonly string[] } }): RoleDef {
  const a = session.customAgent;
  if (!a) return roleOf(session.role);
  const lead = session.isSubagent === false ? '' : `${ROLES.general.instructions}\n\n`;
  return {
    name: a.name,
    instructions: `${lead}You run as the ${a.name} agent. Its instructions:\n${a.instructions}`.trimEnd(),
    ...(a.tools ? { tools: a.tools } : {}),
    ...(a.deniedTools ? { deniedTools: a.deniedTools } : {}),
  };
}
