import { errorResult, okResult, type ToolResult } from '../types';
import type { ProcessOutcome } from './run-process';

/** Turns a finished process into what the model reads: the (capped) output and how it ended. */
export function outcomeResult(o: ProcessOutcome, what: string, timeoutS: number): ToolResult {
  const text = o.output.text.replace(/\n+$/, '');
  if (o.spawnError) return errorResult('failed', `could not start the ${what}: ${o.spawnError.message}`);
  if (o.cancelled) return errorResult('cancelled', `the ${what} was cancelled; it and every process it started were stopped.${text ? ` Output so far:\n${text}` : ''}`);
  if (o.timedOut) {
    return errorResult(
      'timeout',
      `the ${what} timed out after ${timeoutS}s; it and every process it started were killed. ` +
        `Raise timeout_s if it needs longer, or start it in the background with its output sent to a file.${text ? ` Output before the timeout:\n${text}` : ' It printed nothing.'}`,
    );
  }
  const lines = [text || '(no output)'];
  if (o.heldOpen) lines.push('[a background process it started still holds the output; reading stopped. Redirect background output to a file (cmd > log 2>&1 &)]');
  lines.push(o.exitSignal ? `[killed by ${o.exitSignal}]` : `[exit code ${o.exitCode ?? 'unknown'}]`);
  return okResult(lines.join('\n'));
}
