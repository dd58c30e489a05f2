import type { Agent } from '../core/agent/agent';
import type { Session } from '../core/conversation/session';
import type { CompactionOutcome } from '../core/context/compaction/compactor';
import { closeAllBrowsers } from '../core/browser';
import type { Logger } from '../core/log';
import { ModelError } from '../core/model/types';
import { onStopSignals } from './process-exit';
import { resolveSessionId } from './session-id';
import { createCliAgent, stderrLogger, type CommonFlags } from './setup';
import { answerText, block } from './terminal-text';

const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n));

/** One line for people: what a compaction did (the event, or the outcome of agent.compact). */
export function compactionEventLine(e: { trigger: string; tokensBefore: number; tokensAfter: number; rounds: number; model: string; failure?: string }): string {
  if (e.trigger === 'fallback') return `conversation compacted: ${k(e.tokensBefore)} → ${k(e.tokensAfter)} tokens; the summary failed (${e.failure}), so ${e.rounds === 1 ? '1 older round is' : `${e.rounds} older rounds are`} omitted from requests (the session keeps them)`;
  return `conversation compacted: ${k(e.tokensBefore)} → ${k(e.tokensAfter)} tokens, ${e.rounds} round${e.rounds === 1 ? '' : 's'} summarized by ${e.model}`;
}

function compactionLine(o: CompactionOutcome): string {
  return compactionEventLine({ ...o.record, ...(o.failure ? { failure: o.failure } : {}) });
}

/**
 * Compacts `session` now and reports it: the summary on stdout (`--json`: the outcome as JSON),
 * the line on stderr. 0 when compacted or when there was nothing to compact (said so), 1 on error.
 */
export async function compactSession(agent: Agent, session: Session, focus: string | undefined, json: boolean, signal: AbortSignal, log: Logger): Promise<number> {
  try {
    const out = await agent.compact(session, focus, signal);
    if (!out) {
      process.stderr.write(`snowpea: nothing to compact yet in session ${session.id} (no model round since the last compaction)\n`);
      if (json) process.stdout.write(JSON.stringify({ compacted: false }) + '\n');
      return 0;
    }
    if (json) process.stdout.write(JSON.stringify({ compacted: true, ...out.record, summary: out.summary, ...(out.failure ? { failure: out.failure } : {}) }) + '\n');
    else if (out.summary) {
      const summary = answerText(out.summary);
      process.stdout.write(summary.endsWith('\n') ? summary : `${summary}\n`);
    }
    process.stderr.write(`snowpea: ${block(compactionLine(out))}\n`);
    return 0;
  } catch (e) {
    if (e instanceof ModelError && e.kind === 'cancelled') return 130;
    log.error(`could not compact session ${session.id}: ${(e as Error).message}`);
    return 1;
  }
}

/** `snowpea sessions compact ID [--focus TEXT] [--json]`: compacts a stored session now. */
export async function sessionsCompactCommand(id: string, flags: CommonFlags & { focus?: string; json?: boolean }): Promise<number> {
  const log = stderrLogger(!!flags.verbose);
  const { agent, store, mcp } = await createCliAgent(process.cwd(), flags, log, { needsKey: true });
  const controller = new AbortController();
  const stop = onStopSignals(controller);
  try {
    const session = agent.openSession(resolveSessionId(store!, id));
    if (!session) {
      log.error(`no session ${id} in ${store!.file}`);
      return 1;
    }
    return stop.exitCode(await compactSession(agent, session, flags.focus, !!flags.json, controller.signal, log));
  } finally {
    agent.dispose();
    await Promise.all([store?.close(), mcp.close(), closeAllBrowsers()]);
    stop.dispose();
  }
}
