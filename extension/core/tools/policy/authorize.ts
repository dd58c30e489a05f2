import { errorResult, type AnyTool, type ApprovalRequest, type ReviewedWrite, type ToolContext, type ToolResult } from '../types';
import { decide, settle, type GatesPassed } from './decide';
import { callFacts } from './facts';

/** Whether a call runs: no, with the result to return instead; yes, with the text the user accepted when they reviewed its proposal. */
export type Authorization = { run: false; result: ToolResult } | { run: true; reviewed?: ReviewedWrite };

/**
 * Runs the policy for one call. When the policy asks, a tool that proposes a change (write_file,
 * edit_file) shows it with the question; the approver puts the question to the user and nothing else.
 * `passed`: gates the caller ran already (decide does not run them twice).
 */
export async function authorize(tool: AnyTool, args: unknown, ctx: ToolContext, passed: GatesPassed = {}): Promise<Authorization> {
  const decision = decide(callFacts(tool, args, ctx), passed);
  if (decision.kind === 'allow') return { run: true };
  if (decision.kind === 'refuse') return { run: false, result: decision.result };
  let request: ApprovalRequest = decision.request;
  if (tool.propose) {
    const proposal = await tool.propose(args, ctx);
    if (!('proposed' in proposal)) return { run: false, result: proposal };
    request = { ...request, proposal };
  }
  let reply: Awaited<ReturnType<typeof ctx.approver.approve>>;
  try {
    reply = await ctx.approver.approve(request, ctx.signal);
  } catch (e) {
    if (ctx.signal.aborted) return { run: false, result: errorResult('cancelled', `${tool.name} was cancelled before it ran.`) };
    return { run: false, result: errorResult('denied', `could not ask the user to approve ${request.summary} (${(e as Error).message}); the call did not run.`) };
  }
  if (ctx.signal.aborted) return { run: false, result: errorResult('cancelled', `${tool.name} was cancelled before it ran.`) };
  const answer = typeof reply === 'string' ? { decision: reply } : reply;
  const outcome = settle(request, answer.decision);
  if (outcome.remember) remember(request, ctx);
  if (!outcome.run) return { run: false, result: outcome.result! };
  return request.proposal ? { run: true, reviewed: { proposal: request.proposal, text: answer.text ?? request.proposal.proposed } } : { run: true };
}

/**
 * Keeps an "always" answer: a shell card's command prefix (`npm test`), not every command, for the
 * window or run and where the front end keeps rules (VS Code: the user's approvals.commandRules);
 * a line with no single prefix (noAlways) is allowed this once; any other tool by name, for the
 * window or run.
 */
export function remember(request: ApprovalRequest, ctx: ToolContext): void {
  if (request.commandPrefix) {
    if (ctx.approvals?.allowCommand) ctx.approvals.allowCommand(request.commandPrefix);
    else ctx.approvals?.commandAllow?.add(request.commandPrefix);
  } else if (!request.noAlways) ctx.approvals?.always.add(request.tool);
}
