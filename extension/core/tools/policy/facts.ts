import * as path from 'node:path';
import { isWithin, realPathLoose, resolveToolPath } from '../paths';
import { commandVerdict, suggestedPrefix, type CommandVerdict } from './command-rules';
import { roleOf } from '../roles';
import type { AnyTool, ApprovalPath, Mode, ToolContext } from '../types';
import type { ApprovalFacts, CallFacts, PathFact, SessionFacts } from './decide';

/** Permissions whose calls show the user the whole arguments, since a summary can hide what runs or where data goes. */
const DETAILED = new Set(['exec', 'network']);

export function sessionFacts(session: { mode: Mode; role: string; isSubagent: boolean; customAgent?: { name: string; tools?: readonly string[]; deniedTools?: readonly string[] } }): SessionFacts {
  const a = session.customAgent;
  const limits = a && (a.tools || a.deniedTools) ? { agent: { name: a.name, ...(a.tools ? { tools: a.tools } : {}), ...(a.deniedTools ? { denied: a.deniedTools } : {}) } } : {};
  if (!session.isSubagent) return { mode: session.mode, ...limits };
  const role = roleOf(session.role);
  return {
    mode: session.mode,
    child: { role: a ? a.name : role.name, readOnlyRole: !a && !!role.readOnly, roleKeeps: a ? [] : (role.keeps ?? []) },
    ...limits,
  };
}

/** Classifies one path a call declares, after real-path resolution (symlinks, `..`, case). */
export function pathFact(p: ApprovalPath, ctx: ToolContext): PathFact {
  const r = resolveToolPath(ctx.workspaceRoot, p.path);
  if (r.sensitiveReason) return { class: 'sensitive', reason: r.sensitiveReason };
  if (!r.inside) {
    // Snowpea's own scratch files (full shell outputs) are readable like workspace files.
    if (!p.write && isWithin(realPathLoose(ctx.scratchDir), r.real)) return { class: 'scratch' };
    return { class: 'outside', reason: `${r.display} is outside the workspace` };
  }
  if (p.write && r.protectedReason) return { class: 'protected', reason: r.protectedReason.split('\\').join('/') };
  return { class: 'inside' };
}

/** Everything the policy weighs about one call, from the tool's own declarations and the context. */
export function callFacts(tool: AnyTool, args: unknown, ctx: ToolContext): CallFacts {
  const scope = tool.approval?.(args, ctx) ?? {};
  const summary = scope.summary ?? tool.describeCall?.(args) ?? tool.name;
  const full = DETAILED.has(tool.permission) && args && typeof args === 'object' ? JSON.stringify(args, null, 2) : undefined;
  return {
    ...sessionFacts(ctx.session),
    tool,
    trusted: ctx.workspaceTrusted !== false,
    paths: (scope.paths ?? []).map((p) => pathFact(p, ctx)),
    forceAsk: !!scope.ask,
    noAsk: !!scope.skip,
    summary,
    ...(full && full !== summary && !summary.includes(full) ? { detail: full } : {}),
    ...(scope.command ? { command: commandFacts(scope.command, ctx) } : {}),
    autoApprove: { entries: ctx.settings['approvals.autoApprove'] ?? [], from: ctx.approvals?.autoApproveFrom ?? 'user' },
    alwaysAllowed: ctx.approvals?.always.has(tool.name) ?? false,
    preapproved: ctx.approvals?.preapproved ?? false,
  };
}

/** The facts of a question a running network tool asks mid-call (the browser, before it opens an origin). */
export function consentFacts(toolName: string, summary: string, ctx: ToolContext): ApprovalFacts {
  return {
    tool: { name: toolName, permission: 'network' },
    paths: [],
    forceAsk: false,
    summary,
    autoApprove: { entries: ctx.settings['approvals.autoApprove'] ?? [], from: ctx.approvals?.autoApproveFrom ?? 'user' },
    alwaysAllowed: ctx.approvals?.always.has(toolName) ?? false,
    preapproved: ctx.approvals?.preapproved ?? false,
  };
}

/** Where a redirection writes nothing to any file: `npm test > /dev/null` stays allowed by its rule. */
const DISCARDS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/**
 * What approvals.commandRules (user settings only) and this window's "always allow" answers say
 * about a shell command line; a redirection into a protected or outside path keeps it asking.
 */
function commandFacts(command: { line: string; cwd?: string }, ctx: ToolContext): { verdict: CommandVerdict; prefix?: string } {
  const rules = ctx.settings['approvals.commandRules'] ?? { allow: [], deny: [] };
  const allow = [...rules.allow, ...(ctx.approvals?.commandAllow ?? [])];
  const target = (file: string) => {
    if (DISCARDS.has(file)) return undefined;
    const f = pathFact({ path: command.cwd ? path.join(command.cwd, file) : file, write: true }, ctx);
    return f.class === 'inside' ? undefined : (f.reason ?? f.class);
  };
  const verdict = commandVerdict(command.line, { allow, deny: rules.deny }, target);
  const prefix = suggestedPrefix(command.line);
  return { verdict, ...(prefix ? { prefix } : {}) };
}
