import type { SourceScope } from '../../settings/load';
import { READ_ONLY_MODES } from '../modes';
import type { CommandVerdict } from './command-rules';
import { errorResult, type ApprovalRequest, type Mode, type Permission, type ToolResult, type ToolTraits } from '../types';

/**
 * The one place that decides what a tool call may do. Everything it weighs arrives as plain facts
 * (facts.ts gathers them), so the decision is a pure function a table of cases can test; the host
 * and CLI approvers only put the resulting question to the user.
 */


/** Permissions that ask the user unless allowed another way. `read` runs freely inside the workspace; `agent` (delegate_task) runs, its child's calls ask for themselves. */
const ASKING_PERMISSIONS: ReadonlySet<Permission> = new Set(['write', 'exec', 'network', 'interact']);

/** A path the call touches, classified after real-path resolution. */
export interface PathFact {
  /** 'inside' and 'scratch' (Snowpea's own output files, read) need nothing; the others always ask, with `reason`. */
  class: 'inside' | 'scratch' | 'outside' | 'protected' | 'sensitive';
  reason?: string;
}

/** The session a call runs in: its mode, for a subagent its role's limits, and a custom agent's tool limits. */
export interface SessionFacts {
  mode: Mode;
  child?: {
    role: string;
    readOnlyRole: boolean;
    /** Tools without the readOnly trait the read-only role may still call (RoleDef.keeps). */
    roleKeeps: readonly string[];
  };
  /** A custom agent the session runs as (a subagent, or the chat switched to it), when its file limits tools. */
  agent?: {
    name: string;
    /** Its `tools:` list as Snowpea names (and `prefix*` patterns): it may have these only. */
    tools?: readonly string[];
    /** Its tools taken away. */
    denied?: readonly string[];
  };
}

export interface CallFacts extends SessionFacts {
  tool: { name: string; permission: Permission; traits: ToolTraits };
  /** VS Code Workspace Trust (the CLI trusts the folder it runs in). */
  trusted: boolean;
  paths: PathFact[];
  /** The tool asks even though its permission would not (set_mode leaving a read-only mode). */
  forceAsk: boolean;
  /** The call is itself a question to the user (ask_user): never asked about. */
  noAsk: boolean;
  summary: string;
  /** The whole call as the user should judge it (full arguments), when the summary is shorter. */
  detail?: string;
  /** approvals.autoApprove and who set it: a workspace value never counts. */
  autoApprove: { entries: readonly string[]; from: SourceScope | 'default' };
  /** The user answered "always" for this tool earlier in this window or run. */
  alwaysAllowed: boolean;
  /** The user approved ordinary requests up front (CLI --yes); never covers requests that always ask. */
  preapproved: boolean;
  /** A shell call: what the command rules say, and the prefix an "always" answer would allow. */
  command?: { verdict: CommandVerdict; prefix?: string };
}

/** Whether a tool name is among `allowed`: tool names, and prefixes ending in `*` (`browser_*`, `mcp__github__*`). */
export function toolAllowed(name: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => (a.endsWith('*') ? name.startsWith(a.slice(0, -1)) : a === name));
}

export type Decision = { kind: 'allow' } | { kind: 'ask'; request: ApprovalRequest } | { kind: 'refuse'; result: ToolResult };

/** Why a session may not have this tool at all (its mode, a subagent's role, a custom agent's file), shown to the model; undefined when it may. */
export function offerRefusal(tool: { name: string; traits: ToolTraits }, s: SessionFacts): ToolResult | undefined {
  if (s.child && !tool.traits.subagents) {
    return errorResult('policy_blocked', `${tool.name} is not available to a subagent; finish the task with what you have and report back.`);
  }
  if (READ_ONLY_MODES.has(s.mode) && !tool.traits.readOnly) {
    // Plan mode is the user's choice: the way out is their approval of the plan, not a switch the model asks for.
    const instead =
      s.mode === 'plan' && !s.child
        ? 'Investigate with read tools, then answer with your plan; the user approves it to switch to act mode, and then it can run.'
        : 'Use read tools, or call set_mode with mode "code" to ask the user to switch.';
    return errorResult('mode_blocked', `${tool.name} is not available in ${s.mode} mode, which is read-only (no writes, commands or commits). ${instead}`);
  }
  if (s.child?.readOnlyRole && !tool.traits.readOnly && !s.child.roleKeeps.includes(tool.name)) {
    return errorResult('policy_blocked', `${tool.name} is not available to the read-only ${s.child.role} agent; report what should change instead.`);
  }
  // A custom agent's file only narrows: what it lists is still subject to everything above and to approvals.
  const agent = s.agent;
  if (agent && ((agent.tools && !toolAllowed(tool.name, agent.tools)) || (agent.denied && toolAllowed(tool.name, agent.denied)))) {
    const instead = s.child ? 'report what you could not do' : 'tell the user what you could not do';
    return errorResult('policy_blocked', `${tool.name} is not among the tools the ${agent.name} agent's definition allows; use the tools you have, or ${instead}.`);
  }
  return undefined;
}

/**
 * Gates a caller has already run for this call, so decide does not run them again: the tool
 * runtime checks the offer itself, before its repeat guard (runtime.ts, SessionToolRuntime.execute).
 */
export interface GatesPassed {
  offer?: boolean;
}

/**
 * The gates of one call, in this order (each returns at the first that settles it); the one place
 * the order is written:
 *   1. offer (offerRefusal): the session may have the tool at all (mode, subagent role); skipped
 *      when `passed.offer` says the caller checked it already;
 *   2. trust: Restricted Mode runs read tools only;
 *   3. noAsk: a call that is itself a question to the user runs;
 *   4. deny rules: approvals.commandRules deny wins over everything after it;
 *   5. approval (approvalDecision): paths that always ask, then what the user allowed ahead.
 */
export function decide(f: CallFacts, passed: GatesPassed = {}): Decision {
  const refusal = passed.offer ? undefined : offerRefusal(f.tool, f);
  if (refusal) return { kind: 'refuse', result: refusal };
  const { name, permission, traits } = f.tool;
  if (!f.trusted && (permission !== 'read' || traits.needsTrust)) {
    const why = traits.needsTrust ? `so tools that run programs the workspace configures (${name} runs git, which follows the repository's config) do not run` : 'so only read tools run';
    return {
      kind: 'refuse',
      result: errorResult('policy_blocked', `${name} is not available: this workspace is not trusted (Restricted Mode), ${why}. Use read tools (read_file, grep, glob), or ask the user to trust the workspace.`),
    };
  }
  if (f.noAsk) return { kind: 'allow' };
  const verdict = f.command?.verdict;
  if (verdict?.kind === 'deny') {
    return {
      kind: 'refuse',
      result: errorResult('policy_blocked', `${f.summary} matches the deny rule \`${verdict.rule}\` in the user's approvals.commandRules; it did not run. Do not try to run it another way; ask the user if it is needed.`),
    };
  }
  return approvalDecision(f);
}

/** What the approval gate weighs: a call's facts, or a question a running tool asks mid-call (the browser, about an origin). */
export type ApprovalFacts = Pick<CallFacts, 'paths' | 'forceAsk' | 'summary' | 'detail' | 'autoApprove' | 'alwaysAllowed' | 'preapproved' | 'command'> & {
  tool: { name: string; permission: Permission };
};

/**
 * The approval gate, the one judge of autoApprove (never a workspace value), "always" answers and
 * --yes: paths outside the workspace, protected or sensitive always ask; permissions that ask run
 * when a command rule, an "always" answer, --yes or the user's autoApprove allows them.
 */
export function approvalDecision(f: ApprovalFacts): Decision {
  const { name, permission } = f.tool;
  const verdict = f.command?.verdict;
  const base = { tool: name, permission, summary: f.summary, ...(f.detail ? { detail: f.detail } : {}), ...(f.command?.prefix ? { commandPrefix: f.command.prefix } : f.command ? { noAlways: true } : {}) };
  const reasons = f.paths.flatMap((p) => (p.class === 'inside' || p.class === 'scratch' ? [] : [p.reason ?? p.class]));
  // Outside the workspace, protected and sensitive paths: no setting, "always" answer or --yes skips the question.
  if (reasons.length > 0) return { kind: 'ask', request: { ...base, reason: reasons.join('; '), alwaysAsk: true } };
  if (!f.forceAsk && !ASKING_PERMISSIONS.has(permission)) return { kind: 'allow' };
  if (verdict?.kind === 'allow') return { kind: 'allow' };
  // For a shell call, "always" answers are command prefixes (above), never the whole tool.
  if ((f.alwaysAllowed && !f.command) || f.preapproved) return { kind: 'allow' };
  const auto = f.autoApprove.from === 'workspace' ? [] : f.autoApprove.entries;
  if (auto.includes(name) || auto.includes(permission)) return { kind: 'allow' };
  return { kind: 'ask', request: { ...base, alwaysAsk: false } };
}

/** What the user's answer means: run or not, and whether "always" is remembered (never for requests that always ask). */
export function settle(request: ApprovalRequest, answer: 'allow' | 'allowAlways' | 'deny'): { run: boolean; remember: boolean; result?: ToolResult } {
  if (answer === 'deny') {
    return { run: false, remember: false, result: errorResult('denied', `the user declined ${request.summary}; it did not run. Take another approach or ask the user what they want.`) };
  }
  return { run: true, remember: answer === 'allowAlways' && !request.alwaysAsk };
}
