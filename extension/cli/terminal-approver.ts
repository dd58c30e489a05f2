import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/tools/types';
import { proposalStat, shortDiff } from '../core/tools/core/proposal';
import { interactive, terminalAsk } from './terminal';
import { block, holdsHidden, indent, oneLine } from './terminal-text';

/** Hidden characters in a call, said in words above the question (their escapes alone could pass for a literal backslash). */
function hiddenWarning(req: ApprovalRequest): string {
  const p = req.proposal;
  const parts = [req.summary, req.reason ?? '', req.detail ?? '', p?.display ?? '', p?.proposed ?? ''];
  if (!parts.some(holdsHidden)) return '';
  return 'warning: this call holds control, invisible or direction-changing characters; they are shown escaped (\\x1b, \\u{202e}) and are part of what runs\n';
}

/**
 * The question as the terminal shows it: the diff or the full arguments as a block behind `│ `,
 * then one line naming the tool, what it does and why it asks. Every untrusted part (the command,
 * the path, the file's text, the reason) is escaped (terminal-text.ts), so the bytes shown are the
 * bytes that run and nothing in them can erase, move or conceal the question.
 */
export function approvalQuestion(req: ApprovalRequest): string {
  const why = req.reason ? ` [${oneLine(req.reason)}]` : '';
  const p = req.proposal;
  const body = p ? `${oneLine(p.display)} ${proposalStat(p)}\n${shortDiff(p.current, p.proposed, `a/${p.display}`, `b/${p.display}`).replace(/\n$/, '')}` : req.detail;
  const shown = body ? `${indent(block(body), '  │ ')}\n` : '';
  const choices = req.alwaysAsk || req.noAlways ? '[y]es / [N]o' : req.commandPrefix ? `[y]es / [a]lways for \`${oneLine(req.commandPrefix)}\` / [N]o` : '[y]es / [a]lways / [N]o';
  return `\n${shown}${hiddenWarning(req)}Allow ${oneLine(req.tool)} (${req.permission}): ${oneLine(req.summary)}${why}? ${choices}: `;
}

/**
 * The CLI's approver puts the policy's question on the terminal and decides nothing: without a
 * terminal it answers no, saying why and how to allow ordinary calls (--yes); requests that always
 * ask (protected and outside paths) are never approved by --yes, so they need a terminal.
 */
export function terminalApprover(): Approver {
  return {
    async approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
      if (!interactive()) {
        const how = req.alwaysAsk ? `it always asks (${oneLine(req.reason ?? '')}), and --yes does not approve that; run in a terminal to answer` : 'not a terminal; pass --yes to approve tool calls in scripted runs';
        process.stderr.write(`snowpea: declined ${oneLine(req.tool)} (${oneLine(req.summary)}): ${how}\n`);
        return 'deny';
      }
      const answer = (await terminalAsk(approvalQuestion(req), signal)).toLowerCase();
      if (answer === 'a' || answer === 'always') return req.alwaysAsk || req.noAlways ? 'allow' : 'allowAlways';
      return answer === 'y' || answer === 'yes' ? 'allow' : 'deny';
    },
  };
}
