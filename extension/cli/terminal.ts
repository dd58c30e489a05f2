import * as readline from 'node:readline/promises';
import { block, oneLine, RESET } from './terminal-text';

export function interactive(): boolean {
  return !!process.stdin.isTTY && !!process.stderr.isTTY;
}

/**
 * Puts a question on the terminal and reads the answer. The question is escaped here, whoever
 * built it (terminal-text.ts: line breaks kept, every other control and bidi character shown as
 * an escape), and starts after an attribute reset, so nothing printed before can hide it.
 */
export async function terminalAsk(question: string, signal: AbortSignal): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(RESET + block(question), { signal })).trim();
  } finally {
    rl.close();
  }
}

/** ask_user on the terminal; undefined (tool refuses clearly) when stdin is not a terminal. */
export function terminalAskUser(): ((q: string, choices: string[] | undefined, signal: AbortSignal) => Promise<string>) | undefined {
  if (!interactive()) return undefined;
  return async (question, choices, signal) => {
    const list = choices?.length ? `\n${choices.map((c, i) => `  ${i + 1}. ${oneLine(c)}`).join('\n')}\n` : '\n';
    const answer = await terminalAsk(`\n${question}${list}> `, signal);
    const n = Number(answer);
    return choices && Number.isInteger(n) && n >= 1 && n <= choices.length ? choices[n - 1] : answer;
  };
}

/** A yes/no question on the terminal; false without one. */
export async function terminalConfirm(question: string): Promise<boolean> {
  if (!interactive()) return false;
  const answer = (await terminalAsk(`${question} [y/N]: `, new AbortController().signal)).toLowerCase();
  return answer === 'y' || answer === 'yes';
}
