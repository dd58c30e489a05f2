import { isWithin, realPathLoose, resolveToolPath } from './paths';
import { errorResult, type AnyTool, type ApprovalRequest, type Permission, type ToolContext, type ToolResult } from './types';

/** Permissions that ask the user unless auto-approved. `read` runs freely inside the workspace; `agent` (delegate_task) runs, its child's tools ask for themselves. */
const ASKING_PERMISSIONS: ReadonlySet<Permission> = new Set(['write', 'exec', 'network', 'interact']);

export type ApprovalPlan =
  | { kind: 'run' }
  | { kind: 'ask'; request: ApprovalRequest }
  | { kind: 'block'; result: ToolResult };

/** Why this call must always ask (outside the workspace, protected path), from the paths the tool declares. */
function alwaysAskReasons(paths: { path: string; write: boolean }[], ctx: ToolContext): string[] {
  const scratch = realPathLoose(ctx.scratchDir);
  const reasons: string[] = [];
  for (const p of paths) {
    const r = resolveToolPath(ctx.workspaceRoot, p.path);
    // Snowpea's own scratch files (full shell outputs) are readable like workspace files.
    if (!r.inside && !(p.write === false && isWithin(scratch, r.real))) {
      reasons.push(`${r.display} is outside the workspace`);
    } else if (p.write && r.protectedReason) {
      reasons.push(r.protectedReason.split('\\').join('/'));
    }
  }
  return reasons;
}

/** Decides, without running anything, whether a call runs, asks, or is blocked. Pure apart from path resolution. */
export function planApproval(tool: AnyTool, args: unknown, ctx: ToolContext): ApprovalPlan {
  if (ctx.workspaceTrusted === false && (tool.permission !== 'read' || tool.needsTrust)) {
    const why = tool.needsTrust ? `so tools that run programs the workspace configures (${tool.name} runs git, which follows the repository's config) do not run` : 'so only read tools run';
    return {
      kind: 'block',
      result: errorResult('policy_blocked', `${tool.name} is not available: this workspace is not trusted (Restricted Mode), ${why}. Use read tools (read_file, grep, glob), or ask the user to trust the workspace.`),
    };
  }
  const scope = tool.approval?.(args, ctx) ?? {};
  if (scope.skip) return { kind: 'run' };
  const summary = scope.summary ?? tool.describeCall?.(args) ?? tool.name;
  const reasons = alwaysAskReasons(scope.paths ?? [], ctx);
  const base = { tool: tool.name, permission: tool.permission, summary };
  if (reasons.length > 0) return { kind: 'ask', request: { ...base, reason: reasons.join('; '), alwaysAsk: true } };
  if (!scope.ask && !ASKING_PERMISSIONS.has(tool.permission)) return { kind: 'run' };
  const auto = ctx.settings['approvals.autoApprove'] ?? [];
  if (auto.includes(tool.name) || auto.includes(tool.permission)) return { kind: 'run' };
  return { kind: 'ask', request: { ...base, alwaysAsk: false } };
}

/** Runs the approval step: undefined means go ahead, otherwise the result to return instead of running. */
export async function checkApproval(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult | undefined> {
  const plan = planApproval(tool, args, ctx);
  if (plan.kind === 'run') return undefined;
  if (plan.kind === 'block') return plan.result;
  let decision: string;
  try {
    decision = await ctx.approver.approve(plan.request, ctx.signal);
  } catch (e) {
    if (ctx.signal.aborted) return errorResult('cancelled', `${tool.name} was cancelled before it ran.`);
    return errorResult('denied', `could not ask the user to approve ${plan.request.summary} (${(e as Error).message}); the call did not run.`);
  }
  if (ctx.signal.aborted) return errorResult('cancelled', `${tool.name} was cancelled before it ran.`);
  if (decision === 'allow') return undefined;
  return errorResult('denied', `the user declined ${plan.request.summary}; it did not run. Take another approach or ask the user what they want.`);
}
