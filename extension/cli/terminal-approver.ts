import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/tools/types';
import { proposalStat, shortDiff } from '../core/tools/core/proposal';
import { interactive, terminalAsk } from './terminal';

/**
 * The CLI's approver puts the policy's question on the terminal and decides nothing: without a
 * terminal it answers no, saying why and how to allow ordinary calls (--yes); requests that always
 * ask (protected and outside paths) are never approved by --yes, so they need a terminal.
 */
export function terminalApprover(): Approver {
  return {
    async approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
      if (!interactive()) {
        const how = req.alwaysAsk ? `it always asks (${req.reason}), and --yes does not approve that; run in a terminal to answer` : 'not a terminal; pass --yes to approve tool calls in scripted runs';
        process.stderr.write(`snowpea: declined ${req.tool} (${req.summary}): ${how}\n`);
        return 'deny';
      }
      const why = req.reason ? ` [${req.reason}]` : '';
      const p = req.proposal;
      const detail = p ? `\n${p.display} ${proposalStat(p)}\n${shortDiff(p.current, p.proposed, `a/${p.display}`, `b/${p.display}`)}\n` : req.detail ? `\n${req.detail}\n` : '';
      const choices = req.alwaysAsk ? '[y]es / [N]o' : '[y]es / [a]lways / [N]o';
      const answer = (await terminalAsk(`\n${detail}Allow ${req.tool} (${req.permission}): ${req.summary}${why}? ${choices}: `, signal)).toLowerCase();
      if (answer === 'a' || answer === 'always') return req.alwaysAsk ? 'allow' : 'allowAlways';
      return answer === 'y' || answer === 'yes' ? 'allow' : 'deny';
    },
  };
}
