/**
 * McpManager: every configured MCP server of a workspace, their tools in ToolRegistries, and the
 * CLI/host views of them. Servers start lazily (on a call, or when tool_search asks for their
 * tools); a server whose tool list was never seen starts right away in the background so its
 * tools can be offered, and a session's first request (whenFirstListed) and tool_search
 * (whenStarted) wait for such starts. Tool lists and first-start answers persist in `cacheDir`.
 */
import { Emitter, type Disposable, type Event } from '../conversation/emitter';
import { silentLogger, type Logger } from '../log';
import type { ToolRegistry } from '../tools/registry';
import { searchTools, toolQuery } from '../tools/core/tool-search';
import { errorResult, type ToolContext, type ToolResult } from '../tools/types';
import type { BackoffOptions } from './backoff';
import { McpCache } from './cache';
import { currentDefinitionHash } from './config';
import { previewServer, type ConsentAnswer, type ConsentView } from './consent-text';
import { McpOAuthProvider } from './oauth-provider';
import { signInToServer, type SignInUi } from './oauth-signin';
import { MemorySecretStore, ServerSecrets, type McpSecretStore } from './oauth-store';
import { McpToolRegistrar } from './registrar';
import { McpServerHandle } from './server-handle';
import type { McpServerDef, McpServerStatus } from './types';
import { describeTarget, resolveServerDef, type InputResolver } from './variables';
import { TOOL } from '../tools/names';

export interface McpManagerOptions {
  /** From loadMcpConfig. */
  servers: McpServerDef[];
  /** Config problems to show with the server list (loadMcpConfig's). */
  problems?: string[];
  /** Where mcp-tools.json and mcp-consent.json live (e.g. ~/.snowpea/mcp or the extension's global storage). */
  cacheDir: string;
  workspaceRoot?: string;
  /** VS Code Workspace Trust; workspace-defined servers do not start when false. Default: trusted. */
  workspaceTrusted?: () => boolean;
  /**
   * Asked before the first start of a workspace-defined server, with the text to show (consent-text.ts).
   * A boolean answer is remembered per definition hash; `{allow, remember: false}` holds for this run only.
   * Absent: such servers do not start.
   */
  confirmServer?: (def: McpServerDef, view: ConsentView) => Promise<boolean | ConsentAnswer>;
  /** Answers `${input:id}` (VS Code prompts); absent: servers that use inputs report that they cannot start. */
  resolveInput?: InputResolver;
  /** Environment for `${env:...}` and the base environment of stdio servers. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Initialize plus the first tool list (default 30 s); also bounds whenFirstListed / whenStarted. */
  startTimeoutS?: number;
  restartBackoff?: BackoffOptions;
  /** Start servers with no cached tool list when attached, so their tools appear (default true). */
  startUncached?: boolean;
  /**
   * OAuth for hosted servers: where tokens live (one secret per server url) and how the user signs
   * in. Without a store, tokens live in memory for this run; without `ui`, a server that needs
   * sign-in says `signInHint` (the CLI: only the editor signs in).
   */
  oauth?: { store?: McpSecretStore; ui?: SignInUi; signInHint?: string };
}

export class McpManager implements Disposable {
  private readonly handles = new Map<string, McpServerHandle>();
  private readonly registrars = new Set<McpToolRegistrar>();
  private readonly changed: Emitter<void>;
  /** A server's state, tools or access changed (the host's progress notifications and views listen). */
  readonly onDidChange: Event<void>;
  private readonly warming = new Set<Promise<unknown>>();
  private readonly inputs = new Map<string, Map<string, string>>();
  readonly problems: string[];
  readonly cache: McpCache;
  private readonly secrets: McpSecretStore;
  private disposed = false;

  constructor(private readonly o: McpManagerOptions) {
    this.problems = [...(o.problems ?? [])];
    this.cache = new McpCache(o.cacheDir);
    const logger = o.logger ?? silentLogger;
    this.changed = new Emitter<void>({ onListenerError: (e) => logger.error(`MCP: a listener of the server list failed: ${e instanceof Error ? e.message : String(e)}`) });
    this.onDidChange = this.changed.event;
    const env = o.env ?? process.env;
    this.secrets = o.oauth?.store ?? new MemorySecretStore();
    for (const def of o.servers) {
      const inputs = new Map<string, string>();
      this.inputs.set(def.name, inputs);
      this.handles.set(
        def.name,
        new McpServerHandle({
          def,
          cache: this.cache,
          resolve: (d) => resolveServerDef(d, { workspaceRoot: o.workspaceRoot, env, resolveInput: o.resolveInput }, inputs),
          baseEnv: env,
          trusted: () => o.workspaceTrusted?.() ?? true,
          confirm: o.confirmServer,
          preview: (d) => previewServer(d, { workspaceRoot: o.workspaceRoot, env }),
          rehash: (d) => currentDefinitionHash(d, o.workspaceRoot),
          startTimeoutMs: (o.startTimeoutS ?? 30) * 1000,
          authProvider: (r) => new McpOAuthProvider(this.secrets, r.url!, { kind: 'connect' }),
          signInHint: o.oauth?.signInHint,
          backoff: o.restartBackoff,
          logger,
          onTools: () => this.syncServer(def.name),
          onState: () => this.changed.fire(),
        }),
      );
    }
  }

  /** Seconds a start may take (initialize plus the first tool list); the waits for starting servers use it too. */
  get startTimeoutS(): number {
    return this.o.startTimeoutS ?? 30;
  }

  /** Each server's state, source, tool count and last error, in configuration order. */
  servers(): McpServerStatus[] {
    return [...this.handles.values()].map((h) => ({
      name: h.def.name,
      source: h.def.source,
      transport: h.def.transport,
      target: describeTarget(h.def),
      ...(h.def.env && Object.keys(h.def.env).length ? { envNames: Object.keys(h.def.env).sort() } : {}),
      ...(h.def.envFile ? { envFile: h.def.envFile } : {}),
      state: h.state,
      toolCount: h.usable() ? h.tools.length : 0,
      toolsFrom: h.usable() ? h.toolsFrom : 'none',
      ...(h.lastError ? { lastError: h.lastError } : {}),
      restarts: h.restarts,
    }));
  }

  /** The process id of a stdio server: the running one, else the last one started (for diagnostics and tests). */
  pidOf(name: string): number | undefined {
    const h = this.handles.get(name);
    return h?.pid ?? h?.lastPid;
  }

  /**
   * Registers every usable server's tools (from the cache now, refreshed when the server runs)
   * into the registry and keeps them in step; tool_search calls that match a server's tools start it.
   */
  attach(registry: ToolRegistry): Disposable {
    const registrar = new McpToolRegistrar(registry, (server, tool, args, ctx) => this.callTool(server, tool, args, ctx));
    this.registrars.add(registrar);
    for (const name of this.handles.keys()) this.syncServer(name, registrar);
    const sub = registry.onWillInvoke(({ name, rawArgs }) => {
      if (name === TOOL.tool_search) this.warmFor(registrar, rawArgs);
    });
    if (this.o.startUncached ?? true) {
      for (const h of this.handles.values()) if (h.usable() && h.toolsFrom === 'none' && h.state === 'idle') this.warm(h);
    }
    return {
      dispose: () => {
        sub.dispose();
        registrar.dispose();
        this.registrars.delete(registrar);
      },
    };
  }

  /** Resolves when the background starts begun so far have finished (successfully or not). */
  async ready(): Promise<void> {
    while (this.warming.size) await Promise.allSettled([...this.warming]);
  }

  /**
   * Resolves when the servers starting for the first time (no tool list ever seen, so none of
   * their tools is offered yet) have listed their tools or failed to start: a session's first
   * request waits for this so its Deferred line names them. A server waiting for the user's
   * consent is waited for until answered; declined, blocked or unstarted servers are not waited
   * for. Bounded by the start timeout (startTimeoutS); resolves at once when `signal` aborts;
   * never rejects. `onWait` is told which servers it waits for (not called when none).
   */
  whenFirstListed(signal?: AbortSignal, onWait?: (servers: string[]) => void): Promise<void> {
    return this.waitForStarts((h) => h.toolsFrom === 'none', signal, onWait);
  }

  /** As whenFirstListed, for every server whose start is in progress (tool_search waits before it answers not found). */
  whenStarted(signal?: AbortSignal, onWait?: (servers: string[]) => void): Promise<void> {
    return this.waitForStarts(() => true, signal, onWait);
  }

  private async waitForStarts(which: (h: McpServerHandle) => boolean, signal: AbortSignal | undefined, onWait?: (servers: string[]) => void): Promise<void> {
    const deadline = Date.now() + this.startTimeoutS * 1000;
    const waiting = (h: McpServerHandle) => !this.disposed && h.usable() && which(h);
    // A workspace server's consent question comes first (unannounced): a decline means no start and no wait.
    const asking = [...this.handles.values()].flatMap((h) => (waiting(h) && h.consentPending() ? [h.consentPending()!] : []));
    if (asking.length && !(await waitUntil(asking, deadline, signal))) return;
    const pending = [...this.handles.values()].flatMap((h) => {
      const p = waiting(h) ? h.startPending() : undefined;
      return p ? [{ name: h.def.name, p }] : [];
    });
    if (!pending.length || signal?.aborted) return;
    onWait?.(pending.map((x) => x.name));
    await waitUntil(
      pending.map((x) => x.p),
      deadline,
      signal,
    );
  }

  /** Starts a server now (the host's "Start" action); rejects with the reason it cannot start. */
  async start(name: string): Promise<void> {
    await this.handle(name).ensureStarted();
  }

  async restart(name: string): Promise<void> {
    const h = this.handle(name);
    await h.stop();
    await h.ensureStarted();
  }

  async stop(name: string): Promise<void> {
    await this.handle(name).stop();
  }

  /**
   * Signs in to a hosted server (the browser comes back to a loopback server; oauth-signin.ts),
   * stores its tokens and reconnects it. Rejects with the reason: not a url server, blocked or
   * declined, no way to sign in here, or the sign-in's own error.
   */
  async signIn(name: string, signal?: AbortSignal): Promise<void> {
    const h = this.handle(name);
    const ui = this.o.oauth?.ui;
    if (h.def.transport === 'stdio') throw new Error(`the MCP server "${name}" runs a local command; only url servers sign in`);
    // A workspace server's trust and first-start question come before any sign-in (a start that needs sign-in stops at needs-auth).
    if (h.state !== 'needs-auth' && h.state !== 'running') await h.ensureStarted().catch(() => undefined);
    if (!h.usable()) throw new Error(`the MCP server "${name}" cannot be used (${h.lastError ?? h.state})`);
    if (!ui) throw new Error(`the MCP server "${name}" cannot sign in here: ${this.o.oauth?.signInHint ?? 'no way to open a browser'}`);
    const r = await h.resolved();
    await signInToServer({ serverName: name, serverUrl: r.url!, store: this.secrets, ui, signal });
    await h.stop();
    await h.ensureStarted();
  }

  /** Forgets a hosted server's tokens and registration and stops it; its next start needs sign-in again. */
  async signOut(name: string): Promise<void> {
    const h = this.handle(name);
    if (h.def.transport === 'stdio') throw new Error(`the MCP server "${name}" runs a local command; it has no sign-in`);
    const r = await h.resolved();
    await new ServerSecrets(this.secrets, r.url!).clear();
    await h.stop();
  }

  /** Forgets the user's answer for a workspace server, so its next start asks again. */
  forgetConsent(name: string): void {
    const h = this.handle(name);
    h.forgetConsent();
    if (h.checkAccess()) this.syncServer(name);
    this.changed.fire();
  }

  /** Re-checks Workspace Trust and remembered answers (call when trust changes). */
  refreshAccess(): void {
    for (const [name, h] of this.handles) if (h.checkAccess()) this.syncServer(name);
    this.changed.fire();
  }

  async callTool(server: string, tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const h = this.handles.get(server);
    if (!h) return errorResult('unavailable', `there is no MCP server named "${server}"`);
    return h.call(tool, args, ctx);
  }

  /** Stops every server (stdio process trees are killed) and removes their tools. */
  dispose(): void {
    void this.close();
  }

  async close(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const r of this.registrars) r.dispose();
    this.registrars.clear();
    await Promise.allSettled([...this.handles.values()].map((h) => h.stop(true)));
    this.changed.dispose();
  }

  private handle(name: string): McpServerHandle {
    const h = this.handles.get(name);
    if (!h) throw new Error(`there is no MCP server named "${name}"`);
    return h;
  }

  private syncServer(name: string, only?: McpToolRegistrar): void {
    const h = this.handles.get(name);
    if (!h || this.disposed) return;
    const tools = h.usable() ? h.tools : [];
    for (const r of only ? [only] : this.registrars) r.sync(name, tools);
  }

  private warm(h: McpServerHandle): void {
    if (this.disposed) return;
    const p = h.ensureStarted().catch(() => undefined);
    this.warming.add(p);
    void p.finally(() => this.warming.delete(p));
  }

  /** tool_search is about to run: start (in the background) the idle servers whose tools it will find. */
  private warmFor(registrar: McpToolRegistrar, raw: string): void {
    let query: string;
    try {
      query = String((JSON.parse(raw) as { query?: unknown }).query ?? '');
    } catch {
      return;
    }
    const servers = new Set<string>();
    const parsed = toolQuery(query);
    if ('select' in parsed) {
      for (const n of parsed.select) {
        const s = registrar.serverOf(n);
        if (s) servers.add(s);
      }
    } else {
      const mine = registrar.tools();
      for (const t of searchTools(mine.map((x) => x.tool), parsed.keywords)) servers.add(mine.find((x) => x.tool === t)!.server);
    }
    for (const s of servers) {
      const h = this.handles.get(s);
      if (h && h.usable() && (h.state === 'idle' || h.state === 'stopped')) this.warm(h);
    }
  }
}

/** Waits for all of `promises` (which never reject), at most until `deadline` or the signal's abort; true when they all settled. */
async function waitUntil(promises: Promise<unknown>[], deadline: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return false;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      Promise.all(promises).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
        timer.unref?.();
      }),
      new Promise<boolean>((resolve) => {
        onAbort = () => resolve(false);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
