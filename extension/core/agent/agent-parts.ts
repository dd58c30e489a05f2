import * as path from 'node:path';
import { limitsFromSettings } from '../images/limits';
import { AttachmentStore } from '../images/store';
import { referencingSink } from '../images/session-refs';
import { modelCapabilities } from '../model/capabilities';
import type { Usage } from '../model/types';
import { RepeatGuard } from '../tools/repeat-guard';
import { SessionToolRuntime } from '../tools/runtime';
import { createDelegateTaskTool, type ChildOutcome } from '../tools/core/delegate-task';
import { createToolSearchTool } from '../tools/core/tool-search';
import { ApprovalMemory } from '../tools/policy/memory';
import { TOOL } from '../tools/names';
import type { ToolContext } from '../tools/types';
import type { Disposable } from '../conversation/emitter';
import type { Session } from '../conversation/session';
import { SessionStates } from '../conversation/session-states';
import type { TranscriptSink } from '../conversation/transcript-sink';
import { SessionPromptBuilder } from '../context/prompt-builder';
import { ProjectContext } from '../context/project-context';
import { Compactor } from '../context/compaction/compactor';
import { WorkspaceLibrary } from '../library';
import { AgentLoop } from './loop';
import { RoundMeter } from './meter';
import { BudgetGuard } from './budget/guard';
import type { AgentOptions, AgentStore } from './agent-options';
import { pruneRuleOf } from '../context/prune-rule';

/** What the parts call back into the agent for. */
export interface AgentCallbacks {
  /** delegate_task's child sessions. */
  runChild(parentId: string, req: { task: string; agent: string; maxRounds: number }, signal: AbortSignal): Promise<ChildOutcome>;
  /** The context a session's tool call runs in. */
  toolContext(session: Session, signal: AbortSignal, onOutput: (chunk: string) => void): ToolContext;
}

/** The agent's parts, each built once by constructor; what they keep per session is in `states`. */
export interface AgentParts {
  states: SessionStates;
  /** The sessions in memory (a slice of `states`). */
  live: Map<string, Session>;
  approvals: ApprovalMemory;
  library: WorkspaceLibrary;
  attachments: AttachmentStore;
  supportsImages: () => boolean;
  runtime: SessionToolRuntime;
  guard: RepeatGuard;
  prompt: SessionPromptBuilder;
  project: ProjectContext;
  compactor: Compactor;
  budget: BudgetGuard;
  loop: AgentLoop;
  sink?: TranscriptSink;
  disposables: Disposable[];
}

/**
 * Wires the agent's parts: the tool runtime with the repeat guard and the project context's
 * decoration, the prompt builder, the compactor, the budget and the loop. The guard asks the
 * prompt builder whether a result is still sent and the builder asks the runtime for the
 * deferred line: both through closures, read at call time, so each part gets the others by constructor.
 */
export function createAgentParts(opts: AgentOptions, callbacks: AgentCallbacks): AgentParts {
  const states = new SessionStates({ onListenerError: (e) => opts.logger.warn(`after a session's release: ${(e as Error)?.message ?? String(e)}`) });
  const live = states.slice<Session>('live sessions');
  const disposables: Disposable[] = [];
  if (opts.onSessionReleased) disposables.push(states.onRelease(opts.onSessionReleased));
  const approvals = opts.approvals ?? new ApprovalMemory();
  const library = new WorkspaceLibrary({ workspaceRoot: opts.workspaceRoot, trusted: () => opts.workspaceTrusted?.() ?? true, logger: opts.logger });
  const attachments = opts.attachments ?? new AttachmentStore({ dir: path.join(opts.scratchRoot, 'attachments'), limits: () => limitsFromSettings(opts.settings()), logger: opts.logger });
  const supportsImages = opts.supportsImages ?? (() => modelCapabilities(opts.settings()['model.name'], opts.settings()).supportsImages);
  const project = new ProjectContext({ settings: opts.settings, logger: opts.logger, library, states });
  const guard = new RepeatGuard({
    enabled: () => opts.settings()['tools.repeatGuard'],
    traitsOf: (name) => opts.registry.get(name)?.traits,
    isResultVisible: (sid, callId) => prompt.isResultVisible(sid, callId),
    states,
  });
  const runtime = new SessionToolRuntime(opts.registry, opts.settings, { guard, decorate: (session, call, result) => project.decorate(session, call, result), states });
  const prompt: SessionPromptBuilder = new SessionPromptBuilder({
    settings: opts.settings,
    deferredLine: () => runtime.deferredLine(),
    extraParts: (session) => [...project.parts(session), ...(opts.extraPromptParts?.(session) ?? [])],
    imageResolver: opts.imageResolver ?? attachments.resolver(supportsImages),
    states,
    pruneRule: pruneRuleOf((name) => opts.registry.get(name)?.traits),
  });
  registerAgentTools(opts, callbacks, { live, runtime, library, disposables });
  disposables.push(opts.registry.onDidChange(() => runtime.invalidate()));
  const sink = opts.store && { ...referencingSink(opts.store, attachments, opts.logger), recordToolCall: opts.store.recordToolCall?.bind(opts.store) };
  const compactor = new Compactor({ settings: opts.settings, client: opts.client, logger: opts.logger, sink, imageResolver: prompt.imageResolver, states });
  const meter = new RoundMeter({ settings: opts.settings, prompt, runtime, compactor, client: opts.client, states });
  const budget = new BudgetGuard({
    settings: opts.settings,
    tokens: compactor.estimator,
    rootOf: (session) => rootOf(live, session),
    asker: opts.askBudget,
    storedUsage: (id) => storedUsage(opts.store, id),
    logger: opts.logger,
    states,
  });
  const loop = new AgentLoop({
    compactor,
    client: opts.client,
    tools: runtime,
    prompt,
    settings: opts.settings,
    logger: opts.logger,
    sink,
    toolContext: (session, signal, onOutput) => callbacks.toolContext(session, signal, onOutput),
    ...(opts.startingTools ? { beforeFirstRequest: (_session: Session, signal: AbortSignal) => opts.startingTools!.firstListed(signal) } : {}),
    // The chat's meter: a subagent's rounds show as its delegate_task card, not on the meter.
    meter: (session, usage) => (session.isSubagent ? undefined : meter.measure(session, usage)),
    beforeRequest: (session, request, signal, tell) => budget.check(session, request, signal, tell),
  });
  disposables.push(loop.onEvent((e) => budget.observe(e, (id) => live.get(id))));
  return { states, live, approvals, library, attachments, supportsImages, runtime, guard, prompt, project, compactor, budget, loop, sink, disposables };
}

/** tool_search and delegate_task, unless the registry has its own (tests). */
function registerAgentTools(
  opts: AgentOptions,
  callbacks: AgentCallbacks,
  p: { live: Map<string, Session>; runtime: SessionToolRuntime; library: WorkspaceLibrary; disposables: Disposable[] },
): void {
  if (!opts.registry.has(TOOL.tool_search)) {
    const tool = createToolSearchTool({
      has: (n) => opts.registry.has(n),
      candidates: (sessionId) => {
        const s = p.live.get(sessionId);
        // A custom agent's search finds only tools its definition allows.
        return opts.registry.all().filter((t) => t.deferred && (!s || (!p.runtime.isActive(s, t.name) && (!s.customAgent || p.runtime.mayLoad(s, t)))));
      },
      ...(opts.startingTools ? { whenStarted: (signal: AbortSignal) => opts.startingTools!.started(signal) } : {}),
    });
    p.disposables.push(opts.registry.register(tool));
  }
  if (!opts.registry.has(TOOL.delegate_task)) {
    const tool = createDelegateTaskTool({
      runChild: (parentId, req, ctx) => callbacks.runChild(parentId, req, ctx.signal),
      defaultMaxRounds: () => Math.min(20, opts.settings()['agent.maxRounds']),
      customAgents: () => p.library.agents().map((a) => a.name),
    });
    p.disposables.push(opts.registry.register(tool));
  }
}

/** The session a session's spending counts for: itself, or (a subagent) its root parent while that is live. */
export function rootOf(live: ReadonlyMap<string, Session>, session: Session): Session {
  let root = session;
  while (root.parentId && live.get(root.parentId)) root = live.get(root.parentId)!;
  return root;
}

/** The token usage stored for a session and its subagents, as the pricing takes it. */
function storedUsage(store: AgentStore | undefined, id: string): Usage[] {
  if (!store?.getUsage) return [];
  const ids = [id, ...(store.childSessions?.(id) ?? []).map((c) => c.id)];
  return ids.flatMap((sid) => store.getUsage!(sid).map((u) => ({ promptTokens: u.prompt, cachedTokens: u.cached, completionTokens: u.completion })));
}
