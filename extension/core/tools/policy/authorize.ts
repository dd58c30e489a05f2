import { errorResult, type AnyTool, type ToolContext, type ToolResult } from '../types';
import { decide, settle } from './decide';
import { callFacts } from './facts';

/**
 * Runs the policy for one call: undefined means go ahead, otherwise the result to return instead
 * of running. When the policy asks, the approver puts the question to the user and nothing else.
 */
export async function authorize(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult | undefined> {
  const decision = decide(callFacts(tool, args, ctx));
  if (decision.kind === 'allow') return undefined;
  if (decision.kind === 'refuse') return decision.result;
  let answer: 'allow' | 'allowAlways' | 'deny';
  try {
    answer = await ctx.approver.approve(decision.request, ctx.signal);
  } catch (e) {
    if (ctx.signal.aborted) return errorResult('cancelled', `${tool.name} was cancelled before it ran.`);
    return errorResult('denied', `could not ask the user to approve ${decision.request.summary} (${(e as Error).message}); the call did not run.`);
  }
  if (ctx.signal.aborted) return errorResult('cancelled', `${tool.name} was cancelled before it ran.`);
  const outcome = settle(decision.request, answer);
  if (outcome.remember) ctx.approvals?.always.add(tool.name);
  return outcome.run ? undefined : outcome.result;
}
