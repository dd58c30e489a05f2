import type { BudgetAnswer, BudgetAsker, BudgetPause, BudgetScope } from '../core/agent/budget/types';
import { expectedText, passedText } from '../core/agent/budget/rules';
import { formatMoney } from '../core/agent/budget/format';
import { interactive, terminalAsk } from './terminal';
import { oneLine } from './terminal-text';

/** The pause as the terminal says it: the request, its expected cost and cache hit, and the budgets it would pass. */
export function budgetLine(p: BudgetPause): string {
  return `The next request to ${oneLine(p.model)} (${expectedText(p.expected)}) would pass ${passedText(p.passes)}`;
}

/** A raised budget as typed: an amount above what this request needs, or undefined (asked again). */
function amount(text: string, least: number): number | undefined {
  const n = /^\$?\s*(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text.replace(/^\$\s*/, '')) : NaN;
  return Number.isFinite(n) && n > least && n <= 1_000_000 ? n : undefined;
}

/**
 * The CLI's budget pause: a question on the terminal (continue once, raise, stop; a raise asks for
 * each budget passed, until an amount that lets the request go or an empty answer, which stops).
 * Without a terminal, or with --yes (which approves tool calls, never spending), it stops and says
 * why on stderr: a scripted run never spends past its budget.
 */
export function terminalBudgetAsker(opts: { yes?: boolean }): BudgetAsker {
  return {
    async ask(p: BudgetPause, signal: AbortSignal): Promise<BudgetAnswer> {
      if (opts.yes || !interactive()) {
        const why = opts.yes ? '--yes approves tool calls, never spending past a budget' : 'no terminal to ask whether to spend more';
        process.stderr.write(`snowpea: ${budgetLine(p)}; ${why}, so the turn stops (raise it with --budget).\n`);
        return { decision: 'stop' };
      }
      const answer = (await terminalAsk(`\n${budgetLine(p)}.\n[c]ontinue once / [r]aise / [S]top: `, signal)).toLowerCase();
      if (answer === 'c' || answer === 'continue') return { decision: 'continue' };
      if (answer !== 'r' && answer !== 'raise') return { decision: 'stop' };
      const raised: Partial<Record<BudgetScope, number>> = {};
      for (const passed of p.passes) {
        const least = passed.spent + p.expected.cost;
        for (;;) {
          const text = await terminalAsk(`New ${passed.scope} budget, more than ${formatMoney(least)} (empty: stop): $`, signal);
          if (!text) return { decision: 'stop' };
          const n = amount(text, least);
          if (n !== undefined) {
            raised[passed.scope] = n;
            break;
          }
          process.stderr.write(`snowpea: ${oneLine(text)} is not an amount above ${formatMoney(least)}\n`);
        }
      }
      return { decision: 'raise', ...raised };
    },
  };
}
