import { errorResult, okResult, type ToolResult } from '../types';
import type { ProcessOutcome } from './run-process';

/** What the kill did, in words: every process, or which ones survived, or only the process group. */
export function killedWords(o: ProcessOutcome, verb: 'killed' | 'stopped'): string {
  const survivors = o.kill?.survivors ?? [];
  if (survivors.length) {
    const n = survivors.length;
    return `it was ${verb}, but ${n} process${n === 1 ? '' : 'es'} it started (pid ${survivors.join(', ')}) could not be killed and may still run`;
  }
  if (o.kill && !o.kill.tracked && process.platform !== 'win32') return `it and its process group were ${verb} (a process it moved to its own session may still run)`;
  // Under the child subreaper every orphan stays a descendant of the run, so the scan saw them all (red team L3).
  if (o.kill?.tracked && o.reaped) return `it and every process it started were ${verb}`;
  // Without it, a process that left both the group and the run's marker (setsid with a cleared environment) cannot be found.
  return `it and every process of it that could be found (its group and descendants) were ${verb}`;
}

/** Turns a finished process into what the model reads: the (capped) output and how it ended. */
export function outcomeResult(o: ProcessOutcome, what: string, timeoutS: number): ToolResult {
  const text = o.output.text.replace(/\n+$/, '');
  if (o.spawnError) return errorResult('failed', `could not start the ${what}: ${o.spawnError.message}`);
  if (o.cancelled) return errorResult('cancelled', `the ${what} was cancelled; ${killedWords(o, 'stopped')}.${text ? ` Output so far:\n${text}` : ''}`);
  if (o.timedOut) {
    return errorResult(
      'timeout',
      `the ${what} timed out after ${timeoutS}s; ${killedWords(o, 'killed')}. ` +
        `Raise timeout_s if it needs longer, or start it in the background with its output sent to a file.${text ? ` Output before the timeout:\n${text}` : ' It printed nothing.'}`,
    );
  }
  const lines = [text || '(no output)'];
  if (o.heldOpen) lines.push('[a background process it started still holds the output; reading stopped. Redirect background output to a file (cmd > log 2>&1 &)]');
  lines.push(o.exitSignal ? `[killed by ${o.exitSignal}]` : `[exit code ${o.exitCode ?? 'unknown'}]`);
  return okResult(lines.join('\n'));
}
