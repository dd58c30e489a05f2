import * as readline from 'node:readline/promises';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/tools/types';

function interactive(): boolean {
  return !!process.stdin.isTTY && !!process.stderr.isTTY;
}

async function ask(question: string, signal: AbortSignal): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question, { signal })).trim();
  } finally {
    rl.close();
  }
}

/**
 * The CLI's approver: `--yes` approves everything (scripted use), a terminal asks, and a
 * non-interactive run without --yes declines with a message that says how to allow it.
 */
export function terminalApprover(opts: { yes: boolean; autoApprove: string[] }): Approver {
  const always = new Set<string>();
  return {
    async approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
      if (opts.yes) return 'allow';
      if (!req.alwaysAsk && (always.has(req.tool) || opts.autoApprove.includes(req.tool) || opts.autoApprove.includes(req.permission))) return 'allow';
      if (!interactive()) {
        process.stderr.write(`snowpea: declined ${req.tool} (${req.summary}): not a terminal; pass --yes to approve tool calls in scripted runs\n`);
        return 'deny';
      }
      const why = req.reason ? ` [${req.reason}]` : '';
      const answer = (await ask(`\nAllow ${req.tool} (${req.permission}): ${req.summary}${why}? [y]es / [a]lways / [N]o: `, signal)).toLowerCase();
      if (answer === 'a' || answer === 'always') {
        if (!req.alwaysAsk) always.add(req.tool);
        return 'allow';
      }
      return answer === 'y' || answer === 'yes' ? 'allow' : 'deny';
    },
  };
}

/** ask_user on the terminal; undefined (tool refuses clearly) when stdin is not a terminal. */
export function terminalAskUser(): ((q: string, choices: string[] | undefined, signal: AbortSignal) => Promise<string>) | undefined {
  if (!interactive()) return undefined;
  return async (question, choices, signal) => {
    const list = choices?.length ? `\n${choices.map((c, i) => `  ${i + 1}. ${c}`).join('\n')}\n` : '\n';
    const answer = await ask(`\n${question}${list}> `, signal);
    const n = Number(answer);
    return choices && Number.isInteger(n) && n >= 1 && n <= choices.length ? choices[n - 1] : answer;
  };
}

/** A yes/no question on the terminal; false without one. */
export async function terminalConfirm(question: string): Promise<boolean> {
  if (!interactive()) return false;
  const answer = (await ask(`${question} [y/N]: `, new AbortController().signal)).toLowerCase();
  return answer === 'y' || answer === 'yes';
}
