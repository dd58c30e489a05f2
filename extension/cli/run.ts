import type { AgentEvent, CostNextEvent, TodoItem } from '../core/conversation/events';
import { formatMoney } from '../core/agent/budget/format';
import type { Session } from '../core/conversation/session';
import { closeAllBrowsers } from '../core/browser';
import { diffStatLine, type TurnReport } from '../core/checkpoints';
import { turnChanges, turnNotes } from './checkpoints';
import { checkAttachPaths } from './attach-check';
import { onStopSignals, type StopReason } from './process-exit';
import { resolveSessionId } from './session-id';
import { compactionEventLine } from './compact';
import { FlagError } from './flag-checks';
import { createCliAgent, stderrLogger, type CommonFlags } from './setup';
import { answerText, block, oneLine } from './terminal-text';

export interface RunFlags extends CommonFlags {
  session?: string;
  json?: boolean;
  /** `--attach PATH` (repeatable): images and files added to the prompt. */
  attach?: string[];
  /** `--compact` (with --session): compact the conversation before the turn; `--focus` what its summary keeps. */
  compact?: boolean;
  focus?: string;
  /** `--plan`: this turn (and the session, until `--act`) in plan mode: read tools only, the answer is a plan. `--act`: back to code mode. */
  plan?: boolean;
  act?: boolean;
  /** `--agent NAME`: the session runs as that custom agent from this turn on (`snowpea`: Snowpea's own again). */
  agent?: string;
}

interface Renderer {
  event(e: AgentEvent): void;
  /** The turn is over: the files it changed and what the stat does not cover (undefined: no checkpoint to tell). */
  end(report: TurnReport | undefined): void;
}

/**
 * Renders events for people: the streamed answer on stdout, one short line per tool call (its
 * title and the result's first line) and the diff stat on stderr; with --verbose, the model's
 * reasoning too, on stderr under a "thinking:" line. Model text, titles and results are escaped
 * for the terminal (terminal-text.ts): nothing the model writes can move the cursor or recolour a question.
 */
function humanRenderer(verbose: boolean): Renderer {
  let midLine = false;
  /** Reasoning is being written to stderr (a line of it is open). */
  let thinking = false;
  const endThinking = () => {
    if (thinking) process.stderr.write('\n');
    thinking = false;
  };
  const out = (s: string) => {
    endThinking();
    process.stdout.write(s);
    midLine = !s.endsWith('\n');
  };
  const note = (s: string) => {
    endThinking();
    if (midLine) out('\n');
    process.stderr.write(s + '\n');
  };
  const think = (s: string) => {
    if (!verbose) return;
    if (!thinking) {
      if (midLine) out('\n');
      process.stderr.write('thinking: ');
      thinking = true;
    }
    process.stderr.write(answerText(s));
  };
  // Each finished call is named by its title, as the chat's card names it ("read src/a.ts").
  const titles = new Map<string, string>();
  const event = (e: AgentEvent) => {
    if (e.type === 'text.delta') out(answerText(e.text));
    else if (e.type === 'reasoning.delta') think(e.text);
    else if (e.type === 'tool.call') titles.set(e.callId, e.title);
    else if (e.type === 'tool.result') {
      const title = titles.get(e.callId) ?? e.tool;
      titles.delete(e.callId);
      const summary = oneLine(e.summary.replace(/\s+/g, ' ').trim());
      note(`  ${e.ok ? '✓' : '✗'} ${oneLine(title)}${summary ? ` — ${summary}` : ''}`);
    }
    else if (e.type === 'todos') note(todoLines(e.todos));
    else if (e.type === 'mode') note(`  mode: ${oneLine(e.mode)}`);
    else if (e.type === 'tools.loaded') note(`  loaded ${e.tools.map(oneLine).join(', ')}`);
    else if (e.type === 'loop.suspected') note(`  loop suspected: ${oneLine(e.tool)} ran ${e.count} times`);
    else if (e.type === 'retry') note(`  retrying (${e.reason}) in ${Math.round(e.delayMs)} ms`);
    else if (e.type === 'error') note(`snowpea: ${block(e.message)}`);
    else if (e.type === 'compaction') note(`  ${block(compactionEventLine(e))}`);
    else if (e.type === 'budget.notice') note(`snowpea warn: ${block(e.text)}`);
    else if (e.type === 'cost.next' && verbose) note(`  next request: ${costNextLine(e)}`);
    else if (e.type === 'turn.end') {
      endThinking();
      if (midLine) out('\n');
    }
  };
  const end = (report: TurnReport | undefined) => {
    if (report?.files.length) note(diffStatLine(report.files));
    for (const line of turnNotes(report)) note(line);
  };
  return { event, end };
}

const TODO_MARK: Record<TodoItem['status'], string> = { done: '[x]', in_progress: '[>]', pending: '[ ]' };

/** The model's todo list as it changed (todo_write), one step a line; the steps are model text, escaped for the terminal. */
export function todoLines(todos: readonly TodoItem[]): string {
  if (!todos.length) return '  todo list cleared';
  return ['  todo:', ...todos.map((t) => `    ${TODO_MARK[t.status]} ${oneLine(t.text)}`)].join('\n');
}

/**
 * One JSON line per event on stdout (each round's `meter` after its `usage`: the context fill,
 * what pruning and deferral saved, the estimated cost); an error is also said once on stderr, for
 * people and logs. turn.end stays the last line and carries `files`, what the turn changed.
 */
function jsonRenderer(): Renderer {
  let turnEnd: AgentEvent | undefined;
  const line = (v: unknown) => process.stdout.write(JSON.stringify(v) + '\n');
  return {
    event: (e) => {
      if (e.type === 'turn.end') return void (turnEnd = e);
      line(e.type === 'meter' && e.cost ? { ...e, cost: roundedCost(e.cost) } : e.type === 'cost.next' ? roundedNext(e) : e);
      if (e.type === 'error') process.stderr.write(`snowpea: ${block(e.message)}\n`);
    },
    end: (report) => {
      const outside = report && { ...(report.nested.length ? { nestedRepos: report.nested } : {}), ...(report.others.length ? { otherSessions: report.others.map(({ sessionId, turn, pid, start, end }) => ({ sessionId, turn, pid, start, end })) } : {}) };
      if (turnEnd) line(report ? { ...turnEnd, files: report.files, ...outside } : turnEnd);
      turnEnd = undefined;
    },
  };
}

/** Exit status of a run stopped at its money budget (agent.budget, --budget). */
export const BUDGET_EXIT = 4;

/** Decimal places of the dollar amounts --json prints (a millionth of a dollar): 0.0001225, not 0.00012250000000000002. */
const COST_DECIMALS = 6;

/** The meter's estimated dollars rounded to COST_DECIMALS. */
export function roundedCost<T extends Record<string, number>>(cost: T): T {
  const scale = 10 ** COST_DECIMALS;
  return Object.fromEntries(Object.entries(cost).map(([k, v]) => [k, Math.round(v * scale) / scale])) as T;
}

/** The expected cost of the next request with --json: the amounts rounded like the meter's. */
function roundedNext(e: CostNextEvent): CostNextEvent {
  const r = (n: number) => roundedCost({ n }).n;
  const b = e.budget;
  return { ...e, cost: r(e.cost), budget: { turn: { ...b.turn, spent: r(b.turn.spent) }, session: { ...b.session, spent: r(b.session.spent) } } };
}

/** `~$0.0040 (9,600 of 12,000 input tokens expected from the cache); this turn $0.048 of $0.050` (--verbose). */
function costNextLine(e: CostNextEvent): string {
  const scope = (name: 'turn' | 'session') => `this ${name} ${formatMoney(e.budget[name].spent)}${e.budget[name].limit === null ? '' : ` of ${formatMoney(e.budget[name].limit!)}`}`;
  return `~${formatMoney(e.cost)} (${e.cachedTokens.toLocaleString('en-US')} of ${e.promptTokens.toLocaleString('en-US')} input tokens expected from the cache); ${scope('turn')}, ${scope('session')}`;
}

/** Whether a model round completed in the session (an answer or a tool call was stored). */
function hasRound(session: Session): boolean {
  return session.messages.some((m) => m.role === 'assistant');
}

/** The line that names a stopped turn's session, so it can be resumed (--session ID). */
function stoppedLine(session: Session, why: StopReason): string {
  if (!hasRound(session)) return 'stopped before a model round completed; no session was kept';
  return `session ${session.id} (stopped${why === 'EPIPE' ? ': the reader of stdout went away' : ''})`;
}

/**
 * `snowpea run "prompt"`: one turn in the current folder. A new session in which no round completed
 * (the first request failed) is not kept. Exit codes: 0 done, 1 error, 3 the answer was cut at the
 * output limit or stopped by the provider's content filter, 4 stopped at the budget, 130 Ctrl-C,
 * 143 SIGTERM, 129 SIGHUP, 141 stdout's reader went away (EPIPE: `| head`); each stop ends the
 * turn, records what completed, names the session on stderr and closes the store first.
 * An --attach path that cannot be attached is refused before anything is opened or sent.
 */
export async function runCommand(prompt: string, flags: RunFlags): Promise<number> {
  const log = stderrLogger(!!flags.verbose);
  if ((flags.compact || flags.focus !== undefined) && !flags.session) throw new FlagError('--compact and --focus compact a stored conversation: give it with --session ID');
  if (flags.plan && flags.act) throw new FlagError('--plan and --act pick opposite modes: give one of them');
  const cwd = process.cwd();
  checkAttachPaths(cwd, flags.attach ?? []);
  const { agent, store, mcp, checkpoints } = await createCliAgent(cwd, flags, log, { needsKey: true });
  const controller = new AbortController();
  const stop = onStopSignals(controller, { stdout: process.stdout });
  let created: Session | undefined;
  let render: Renderer | undefined;
  let session: Session | undefined;
  try {
    session = flags.session ? agent.openSession(resolveSessionId(store!, flags.session)) : (created = agent.newSession());
    if (!session) {
      log.error(`no session ${flags.session} in ${store!.file}`);
      return 1;
    }
    const r = (render = flags.json ? jsonRenderer() : humanRenderer(!!flags.verbose));
    let cut = false;
    // Subagents' own events stay out of the output; their work shows as the delegate_task line.
    const sessionId = session.id;
    agent.onEvent((e) => {
      if (e.sessionId !== sessionId) return;
      if (e.type === 'error' && (e.kind === 'length' || e.kind === 'content_filter')) cut = true;
      r.event(e);
    });
    // The compaction event is rendered like any other (a line on stderr, or a JSON line).
    if (flags.compact && !(await agent.compact(session, flags.focus, controller.signal))) process.stderr.write(`snowpea: nothing to compact yet in session ${session.id}\n`);
    if (flags.plan) agent.setMode(session, 'plan');
    else if (flags.act) agent.setMode(session, 'code');
    if (flags.agent !== undefined && !agent.setAgent(session, flags.agent === 'snowpea' ? null : flags.agent)) throw new FlagError(unknownAgent(flags.agent, agent.agents()));
    const turn = session.turn + 1;
    const onProblems = (problems: string[]) => problems.forEach((p) => process.stderr.write(`snowpea: ${block(p)}\n`));
    const result = await agent.send(session, { text: prompt, attach: flags.attach ?? [] }, controller.signal, { onProblems });
    r.end(stop.received ? undefined : await turnChanges(checkpoints?.storeFor(session.workspaceRoot), session.id, turn, log));
    if (stop.received) process.stderr.write(`${stoppedLine(session, stop.received)}\n`);
    else if (!flags.json && hasRound(session)) process.stderr.write(`session ${session.id}\n`);
    // A plan changed nothing: say how to carry it out (the session stays in plan mode until --act).
    if (!stop.received && !flags.json && result.reason === 'done' && session.mode === 'plan') {
      process.stderr.write(`plan mode: nothing was changed. To carry out the plan: snowpea run --session ${session.id} --act "carry out the plan"\n`);
    }
    return stop.exitCode(result.reason === 'done' ? 0 : result.reason === 'cancelled' ? 130 : result.reason === 'budget' ? BUDGET_EXIT : cut ? 3 : 1);
  } catch (e) {
    if (!stop.received) throw e;
    // Stopped while composing the prompt.
    if (session) process.stderr.write(`${stoppedLine(session, stop.received)}\n`);
    return stop.exitCode(1);
  } finally {
    render?.end(undefined); // a turn that threw still ends its JSON with turn.end (a no-op once written)
    // A new session whose first request failed (or was stopped) has nothing to resume: it is not kept.
    if (created && !hasRound(created)) {
      await agent.deleteSession(created.id).then(
        () => log.info(`session ${created!.id} not kept: no round completed`),
        (e: Error) => log.warn(`could not remove the empty session ${created!.id}: ${e.message}`),
      );
    }
    agent.dispose();
    await Promise.all([store?.close(), mcp.close(), closeAllBrowsers()]);
    stop.dispose();
  }
}

/** `--agent NAME` names no agent the library has: say which it has and where they are read from. */
function unknownAgent(name: string, known: Array<{ name: string }>): string {
  const list = known.length ? `; known: ${known.map((a) => oneLine(a.name)).join(', ')}` : '';
  return `--agent ${oneLine(name)}: no such custom agent${list} (read from .github/agents/, .claude/agents/, .roomodes and .snowpea/agents/ of a trusted workspace, and your user folders)`;
}
