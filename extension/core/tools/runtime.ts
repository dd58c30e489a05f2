import type { AgentEvent } from '../conversation/events';
import type { ToolCall } from '../conversation/messages';
import type { ToolRuntime } from './tool-runtime';
import type { Session } from '../conversation/session';
import type { WireTool } from '../model/types';
import type { Settings } from '../settings/schema';
import { callTitle } from './card-summary';
import { activeTools, deferredLine } from './deferred';
import { sessionRole } from './roles';
import { modeTools } from './modes';
import { offerRefusal } from './policy/decide';
import { sessionFacts } from './policy/facts';
import type { InvokeOptions } from './registry';
import type { AnyTool, ToolContext, ToolResult } from './types';
import { SessionStates } from '../conversation/session-states';

/** What the runtime needs from the registry. */
export interface ToolCatalog {
  all(): AnyTool[];
  get(name: string): AnyTool | undefined;
  jsonSchemaOf(name: string): Record<string, unknown>;
  invoke(name: string, rawArgs: string, ctx: ToolContext, opts?: InvokeOptions): Promise<ToolResult>;
}

/** Hooks around each call: the repeat guard plugs in here. */
export interface CallGuard {
  beginTurn(sessionId: string): void;
  /** Returns a result to use instead of running the call (a stub or a refusal), or undefined to run it. */
  before(sessionId: string, call: ToolCall, ctx: ToolContext): Promise<ToolResult | undefined> | ToolResult | undefined;
  /** May rewrite the result (stubs, warnings) and report events. */
  after(sessionId: string, call: ToolCall, result: ToolResult, notify: (e: AgentEvent) => void, ctx?: ToolContext): ToolResult;
  /** A write or edit through Snowpea (or the editor, or the disk) changed this file. */
  invalidatePath?(realPath: string): void;
}

/** The runtime's parts, given once at construction. */
export interface RuntimeParts {
  /** The repeat guard (absent: every call runs). */
  guard?: CallGuard;
  /** Run after each call (and the guard); may append to the result (nested instruction files). */
  decorate?: (session: Session, call: ToolCall, result: ToolResult) => ToolResult;
  /** Where the per-session blocks and active sets are kept (the agent's; default: the runtime's own). */
  states?: SessionStates;
}

interface CachedBlock {
  key: string;
  block: WireTool[];
}

/**
 * Decides which tool schemas go out each round (eager + loaded, or everything when
 * tools.deferred is off), keeps the serialized block byte-identical while nothing changes,
 * and runs calls: guard, then the registry, then self-loading of deferred tools.
 */
export class SessionToolRuntime implements ToolRuntime {
  private readonly blocks: Map<string, CachedBlock>;
  private readonly schemaCache = new Map<string, WireTool>();
  /** Each session's active set and the inputs it was computed from (asked several times a round); invalidate() drops them. */
  private readonly actives: Map<string, { key: string; tools: AnyTool[] }>;
  private readonly guard?: CallGuard;
  private readonly decorate?: RuntimeParts['decorate'];

  constructor(
    readonly catalog: ToolCatalog,
    private readonly settings: () => Settings,
    parts: RuntimeParts = {},
  ) {
    const states = parts.states ?? new SessionStates();
    this.blocks = states.slice('tool block');
    this.actives = states.slice('active tools');
    this.guard = parts.guard;
    this.decorate = parts.decorate;
  }

  /** A write or edit through Snowpea, the editor or the disk changed this file: the repeat guard forgets what was read there. */
  invalidatePath(realPath: string): void {
    this.guard?.invalidatePath?.(realPath);
  }

  beginTurn(session: Session): void {
    this.guard?.beginTurn(session.id);
  }

  /** Forget cached schemas (a tool was registered, removed or changed). */
  invalidate(): void {
    this.schemaCache.clear();
    this.blocks.clear();
    this.actives.clear();
  }

  /** The tools this session gets this round (do not modify the array). */
  active(session: Session): AnyTool[] {
    const s = this.settings();
    // Everything the set depends on but the catalog, whose changes come through invalidate() (the registry's onDidChange).
    const key = [s['tools.deferred'], s['tools.eager'].join(','), session.role, session.mode, session.isSubagent, session.loadedTools.join(',')].join('|');
    const hit = this.actives.get(session.id);
    if (hit && hit.key === key) return hit.tools;
    const role = sessionRole(session);
    const tools = activeTools({
      tools: this.catalog.all(),
      deferredEnabled: s['tools.deferred'],
      extraEager: [...s['tools.eager'], ...(role.requiredTools ?? []), ...modeTools(session.mode)],
      loaded: session.loadedTools,
      narrowEager: session.isSubagent && role.readOnly ? role.eager : undefined,
      allows: (t) => !this.refusalFor(session, t),
    });
    this.actives.set(session.id, { key, tools });
    return tools;
  }

  isActive(session: Session, name: string): boolean {
    return this.active(session).some((t) => t.name === name);
  }

  /** The grouped line for the system prompt, or undefined when nothing is deferred. */
  deferredLine(): string | undefined {
    const s = this.settings();
    if (!s['tools.deferred']) return undefined;
    return deferredLine(this.catalog.all(), new Set(s['tools.eager']));
  }

  /** Deferred tools not sent to this session, and about how many tokens their schemas would cost (4 chars/token). */
  deferredSavings(session: Session): { tools: number; tokens: number } {
    const active = new Set(this.active(session).map((t) => t.name));
    const held = this.catalog.all().filter((t) => !active.has(t.name));
    const chars = held.reduce((n, t) => n + JSON.stringify(this.wireTool(t)).length, 0);
    return { tools: held.length, tokens: Math.ceil(chars / 4) };
  }

  toolsFor(session: Session): WireTool[] {
    const tools = this.active(session);
    const key = `${session.mode}|${session.role}|${tools.map((t) => t.name).join(',')}`;
    const cached = this.blocks.get(session.id);
    if (cached && cached.key === key) return cached.block;
    const block = tools.map((t) => this.wireTool(t));
    this.blocks.set(session.id, { key, block });
    return block;
  }

  private wireTool(t: AnyTool): WireTool {
    let w = this.schemaCache.get(t.name);
    if (!w) {
      w = { type: 'function', function: { name: t.name, description: t.description, parameters: this.catalog.jsonSchemaOf(t.name) } };
      this.schemaCache.set(t.name, w);
    }
    return w;
  }

  title(call: ToolCall): string {
    return callTitle(call, this.catalog.get(call.name), () => this.catalog.jsonSchemaOf(call.name));
  }

  /**
   * One call. The policy's first gate (the offer, decide.ts, where the gates' order is written) is
   * checked here, before the repeat guard, so a tool the session may not have is refused without a
   * stub; then the repeat guard's before (a stub or a refusal instead of running); then the registry
   * (ToolRegistry.invoke: resolve, parse, the policy's remaining gates, run), told the offer passed
   * so it is not checked twice; then the guard's after, decorators, and a deferred tool called
   * directly loads itself.
   */
  async execute(session: Session, call: ToolCall, ctx: ToolContext, notify: (e: AgentEvent) => void): Promise<ToolResult> {
    const tool = this.catalog.get(call.name);
    const refusal = tool && this.refusalFor(session, tool);
    if (refusal) return refusal;
    // Past the offer gate, a deferred tool the session does not have yet may load itself.
    const selfLoad = !!tool && tool.deferred && this.settings()['tools.deferred'] && !this.isActive(session, call.name);
    const loadedBefore = session.loadedTools.length;
    const stub = await this.guard?.before(session.id, call, ctx);
    let result = stub ?? (await this.catalog.invoke(call.name, call.arguments, ctx, { offered: tool }));
    for (const p of stub ? [] : (result.writtenPaths ?? [])) this.guard?.invalidatePath?.(p);
    if (!stub && this.guard) result = this.guard.after(session.id, call, result, notify, ctx);
    if (this.decorate) result = this.decorate(session, call, result);
    // What the call loaded (tool_search through ctx.loadTools) and, below, a deferred tool loading itself: kept on the result as data.
    const loaded = session.loadedTools.slice(loadedBefore);
    if (loaded.length) notify({ type: 'tools.loaded', sessionId: session.id, tools: loaded });
    if (selfLoad && result.error?.code !== 'invalid_arguments' && result.error?.code !== 'unknown_tool') {
      const added = session.loadTools([call.name]);
      if (added.length) {
        notify({ type: 'tools.loaded', sessionId: session.id, tools: added });
        loaded.push(...added);
        // The model is told in words (a fixed text, docs/design.md, Deferred tools); replay reads `loadedTools`, not this.
        result = { ...result, content: `${result.content}\nloaded ${call.name} for this session` };
      }
    }
    return loaded.length ? { ...result, loadedTools: loaded } : result;
  }

  /** Whether the session may have this tool at all (a child, a read-only mode or a custom agent's list cannot self-load or find what it may not have). */
  mayLoad(session: Session, tool: AnyTool): boolean {
    return !this.refusalFor(session, tool);
  }

  /** The policy's rule for what a session may have at all (mode, subagent role), as the active set and calls see it. */
  private refusalFor(session: Session, tool: AnyTool): ToolResult | undefined {
    return offerRefusal(tool, sessionFacts(session));
  }
}
