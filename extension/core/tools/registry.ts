import { Emitter, type Disposable, type EmitterOptions, type Event } from '../conversation/emitter';
import { parseToolArguments } from './arguments';
import { toolJsonSchema } from './json-schema';
import { authorize, type Authorization } from './policy/authorize';
import { closeNames } from './suggest';
import { errorResult, type AnyTool, type Permission, type ReviewedWrite, type ToolContext, type ToolResult } from './types';

/** A call about to run, as the model sent it. */
export interface WillInvoke {
  name: string;
  rawArgs: string;
}

/** How a caller that ran some of the policy's gates itself hands the call on. */
export interface InvokeOptions {
  /**
   * The tool the caller already found the session may have (the policy's offer gate, checked by
   * the tool runtime before its repeat guard); when it is the tool this name resolves to, the offer
   * is not checked again. Absent (the CLI's `snowpea tools call`, tests): every gate runs here.
   */
  offered?: AnyTool;
}

/** One row of `snowpea tools list --json` and the tools tree. */
export interface CatalogEntry {
  name: string;
  group: string;
  permission: Permission;
  summary: string;
  deferred: boolean;
}

/** Tool names the OpenAI-compatible APIs accept. */
const NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;

function cancelled(name: string): ToolResult {
  return errorResult('cancelled', `${name} was cancelled by the user.`);
}

/** Every tool the session can call: lookup, JSON Schemas, and the one invoke path (parse, the policy, run). */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private readonly schemas = new Map<string, Record<string, unknown>>();
  private readonly changed: Emitter<void>;
  private readonly willInvoke: Emitter<WillInvoke>;
  /** A tool was registered or removed. */
  readonly onDidChange: Event<void>;
  /** Told of every call before it runs (MCP servers start when tool_search asks for their tools). */
  readonly onWillInvoke: Event<WillInvoke>;

  /** `events.onListenerError`: where a listener's throw is reported (the host's and the CLI's log). */
  constructor(tools: Iterable<AnyTool> = [], events: EmitterOptions = {}) {
    this.changed = new Emitter<void>(events);
    this.willInvoke = new Emitter<WillInvoke>(events);
    this.onDidChange = this.changed.event;
    this.onWillInvoke = this.willInvoke.event;
    for (const t of tools) this.register(t);
  }

  register(tool: AnyTool): Disposable {
    if (!NAME_RE.test(tool.name)) throw new Error(`invalid tool name ${JSON.stringify(tool.name)}: use letters, digits, _ and - (at most 64)`);
    if (this.tools.has(tool.name)) throw new Error(`a tool named ${tool.name} is already registered`);
    this.tools.set(tool.name, tool);
    this.changed.fire();
    return { dispose: () => void (this.tools.get(tool.name) === tool && this.unregister(tool.name)) };
  }

  unregister(name: string): boolean {
    const had = this.tools.delete(name);
    this.schemas.delete(name);
    if (had) this.changed.fire();
    return had;
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Every tool in registration order. */
  all(): AnyTool[] {
    return [...this.tools.values()];
  }

  /** The JSON Schema sent to the model: the tool's own (MCP) or derived from the zod input; cached (stable object for byte-identical blocks). */
  jsonSchemaOf(name: string): Record<string, unknown> {
    let s = this.schemas.get(name);
    if (!s) {
      const tool = this.tools.get(name);
      if (!tool) throw new Error(`unknown tool ${name}`);
      s = tool.jsonSchema ?? toolJsonSchema(tool.input);
      this.schemas.set(name, s);
    }
    return s;
  }

  listCatalog(): CatalogEntry[] {
    return this.all()
      .map(({ name, group, permission, summary, deferred }) => ({ name, group, permission, summary, deferred }))
      .sort((a, b) => a.group.localeCompare(b.group) || a.name.localeCompare(b.name));
  }

  /** Runs one call from the model. Never throws: every failure is a ToolResult with an error code. */
  async invoke(name: string, rawArgs: string, ctx: ToolContext, opts: InvokeOptions = {}): Promise<ToolResult> {
    this.willInvoke.fire({ name, rawArgs });
    const tool = this.tools.get(name);
    if (!tool) {
      const near = closeNames(name, this.tools.keys());
      const hint = near.length ? ` Did you mean ${near.join(', ')}?` : ' Use one of the tools you were given, or tool_search to find more.';
      return errorResult('unknown_tool', `there is no tool named ${JSON.stringify(name)}.${hint}`);
    }
    if (ctx.signal.aborted) return cancelled(name);
    const parsed = parseToolArguments(tool, rawArgs, this.jsonSchemaOf(name));
    if (!parsed.ok) return parsed.result;
    let auth: Authorization;
    try {
      auth = await authorize(tool, parsed.value, ctx, { offer: opts.offered === tool });
    } catch (e) {
      return errorResult('failed', `${name} could not be checked for approval: ${(e as Error).message}`);
    }
    if (!auth.run) return auth.result;
    return this.run(tool, parsed.value, ctx, auth.reviewed);
  }

  /** Runs the handler; a throw becomes `failed`, an abort `cancelled` (even if the handler ignores the signal). */
  private async run(tool: AnyTool, args: unknown, ctx: ToolContext, reviewed?: ReviewedWrite): Promise<ToolResult> {
    if (ctx.signal.aborted) return cancelled(tool.name);
    let onAbort!: () => void;
    const aborted = new Promise<ToolResult>((resolve) => {
      onAbort = () => resolve(cancelled(tool.name));
      ctx.signal.addEventListener('abort', onAbort, { once: true });
    });
    const running = Promise.resolve()
      .then(() => tool.run(args, ctx, reviewed))
      .then(
        (r) => (ctx.signal.aborted ? cancelled(tool.name) : r),
        (e: unknown) => (ctx.signal.aborted ? cancelled(tool.name) : errorResult('failed', `${tool.name} failed: ${e instanceof Error ? e.message : String(e)}`)),
      );
    try {
      return await Promise.race([running, aborted]);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }
}
