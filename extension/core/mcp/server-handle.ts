/**
 * One configured MCP server through its life in a session: its tool list (cached or live), the
 * trust and first-start checks, a lazy start, calls with a timeout, and restarts with backoff
 * after a crash or a failed start. A crash or hang never blocks the loop: the call returns an error.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log';
import { errorResult, type ToolContext, type ToolResult } from '../tools/types';
import { Backoff, type BackoffOptions } from './backoff';
import type { McpCache } from './cache';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { connectServer, needsSignIn, type McpConnection } from './connect';
import { consentView, type ConsentAnswer, type ConsentView } from './consent-text';
import { toToolResult, type McpCallResult } from './results';
import type { McpServerDef, McpServerState, McpToolInfo, ResolvedServer } from './types';
import { McpConfigError } from './variables';

export interface ServerHandleOptions {
  def: McpServerDef;
  cache: McpCache;
  resolve(def: McpServerDef): Promise<ResolvedServer>;
  baseEnv: NodeJS.ProcessEnv;
  trusted(): boolean;
  /** Asks the user; a plain boolean is remembered, a ConsentAnswer only when `remember` (a --yes is for this run only). */
  confirm?(def: McpServerDef, view: ConsentView): Promise<boolean | ConsentAnswer>;
  /** The definition resolved for the consent text (undefined: shown as written). */
  preview?(def: McpServerDef): Promise<ResolvedServer | undefined>;
  /** The definition's hash now (its workspace scripts may have been edited since it was loaded). */
  rehash?(def: McpServerDef): string;
  startTimeoutMs: number;
  /** The OAuth provider of a url server (connect mode), keyed by its resolved url. */
  authProvider?(resolved: ResolvedServer): OAuthClientProvider | undefined;
  /** How the user signs in, for the "needs sign-in" error (the host names its command, the CLI says it cannot). */
  signInHint?: string;
  backoff?: BackoffOptions;
  logger: Logger;
  /** The tool list changed (first start, a refresh, or cleared). */
  onTools(): void;
  /** State, error or counts changed. */
  onState(): void;
}

/** Thrown by ensureStarted with the tool error code the call should report. */
export class StartError extends Error {
  constructor(
    readonly code: 'unavailable' | 'denied' | 'policy_blocked' | 'failed' | 'timeout' | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class McpServerHandle {
  state: McpServerState = 'idle';
  lastError?: string;
  restarts = 0;
  tools: McpToolInfo[] = [];
  toolsFrom: 'live' | 'cache' | 'none' = 'none';
  /** The process id of the last stdio process started (running or not). */
  lastPid?: number;
  private conn?: McpConnection;
  private starting?: Promise<McpConnection>;
  /** The first-start question being asked. */
  private asking?: Promise<void>;
  /** Aborts the start in progress (stop() while starting). */
  private startAbort?: AbortController;
  private everStarted = false;
  /** A consent answer for this run only (not stored), keyed by definition hash. */
  private runConsent?: { hash: string; allow: boolean };
  private disposed = false;
  private readonly backoff: Backoff;

  constructor(private readonly o: ServerHandleOptions) {
    this.backoff = new Backoff(o.backoff);
    const cached = o.def.error ? undefined : o.cache.tools(o.def.hash);
    if (cached) {
      this.tools = cached;
      this.toolsFrom = 'cache';
    }
    this.checkAccess();
  }

  get def(): McpServerDef {
    return this.o.def;
  }

  get pid(): number | undefined {
    return this.conn?.pid;
  }

  /** The definition with its variables substituted (the url a sign-in is for). */
  resolved(): Promise<ResolvedServer> {
    return this.o.resolve(this.o.def);
  }

  /** Re-evaluates trust and consent (the host calls this when Workspace Trust changes); true when the state changed. */
  checkAccess(): boolean {
    const before = this.state;
    const d = this.o.def;
    if (d.error) {
      this.state = 'error';
      this.lastError = d.error;
    } else if (d.source.workspace && !this.o.trusted()) {
      this.state = 'blocked';
      this.lastError = `defined by the workspace (${d.source.label}), which is not trusted`;
    } else if (d.source.workspace && this.consent() === false) {
      this.state = 'declined';
      this.lastError = 'the user declined to start this server';
    } else if (before === 'blocked' || before === 'declined') {
      this.state = 'idle';
      this.lastError = undefined;
    }
    return before !== this.state;
  }

  /** Forgets the stored and this run's answer, so the next start asks again. */
  forgetConsent(): void {
    this.o.cache.forgetConsent(this.o.def.hash);
    this.runConsent = undefined;
  }

  /** Whether its tools are offered to the model. */
  usable(): boolean {
    return this.state !== 'error' && this.state !== 'blocked' && this.state !== 'declined' && !this.disposed;
  }

  /** The user's answer to the first-start question, while it is being asked (settled either way). */
  consentPending(): Promise<void> | undefined {
    return this.asking?.then(
      () => undefined,
      () => undefined,
    );
  }

  /** The start in progress (its consent question included), settled either way; undefined when none is. */
  startPending(): Promise<void> | undefined {
    return this.starting?.then(
      () => undefined,
      () => undefined,
    );
  }

  async ensureStarted(): Promise<McpConnection> {
    if (this.disposed) throw new StartError('unavailable', `the MCP server "${this.o.def.name}" has been stopped`);
    if (this.conn) return this.conn;
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** The answer for the current definition: this run's, else the stored one. */
  private consent(): boolean | undefined {
    const h = this.o.def.hash;
    return this.runConsent?.hash === h ? this.runConsent.allow : this.o.cache.consent(h);
  }

  /** A workspace server whose scripts changed since it was loaded gets its new hash, so consent is asked for what runs now. */
  private refreshHash(): void {
    const d = this.o.def;
    if (!d.source.workspace || d.error || !this.o.rehash) return;
    const hash = this.o.rehash(d);
    if (hash === d.hash) return;
    this.o.logger.info(`MCP server ${d.name}: a workspace file it runs changed since it was loaded; its consent is asked again`);
    this.o.def = { ...d, hash };
  }

  private async start(): Promise<McpConnection> {
    this.refreshHash();
    const d = this.o.def;
    this.checkAccess();
    if (this.state === 'error') throw new StartError('unavailable', this.lastError!);
    if (this.state === 'blocked') throw new StartError('policy_blocked', `the MCP server "${d.name}" is ${this.lastError}, so it does not start; ask the user to trust the workspace`);
    if (d.source.workspace && this.consent() === undefined) {
      const asking = this.askConsent();
      this.asking = asking;
      try {
        await asking;
      } finally {
        this.asking = undefined;
      }
    }
    if (this.state === 'declined') throw new StartError('denied', `the user declined to start the MCP server "${d.name}" (${d.source.label}); do not use its tools`);
    const wait = this.backoff.remainingMs();
    if (wait > this.backoff.maxWaitMs) {
      throw new StartError('unavailable', `the MCP server "${d.name}" failed ${this.backoff.count} times in a row (last: ${this.lastError}); the next restart is in ${Math.ceil(wait / 1000)} s`);
    }
    if (wait > 0) await sleep(wait);
    if (this.disposed) throw new StartError('unavailable', `the MCP server "${d.name}" has been stopped`);
    this.setState('starting');
    const abort = new AbortController();
    this.startAbort = abort;
    try {
      const resolved = await this.o.resolve(d);
      // Set once the connection opens; the callbacks below ignore events of a connection that is not the current one.
      let opened: McpConnection | undefined = undefined;
      const conn = await connectServer(resolved, {
        serverName: d.name,
        timeoutMs: this.o.startTimeoutMs,
        baseEnv: this.o.baseEnv,
        onSpawn: (pid) => (this.lastPid = pid),
        onToolsChanged: (tools) => opened && this.conn === opened && this.setTools(tools),
        onUnexpectedClose: (why) => opened && this.crashed(opened, why),
        signal: abort.signal,
        authProvider: resolved.url ? this.o.authProvider?.(resolved) : undefined,
      });
      opened = conn;
      if (this.disposed) {
        await conn.close();
        throw new StartError('unavailable', `the MCP server "${d.name}" has been stopped`);
      }
      if (this.everStarted) this.restarts++;
      this.everStarted = true;
      this.conn = conn;
      this.lastError = undefined;
      this.setState('running');
      this.setTools(conn.tools);
      this.o.logger.info(`MCP server ${d.name} started (${conn.kind}, ${conn.tools.length} tools)`);
      return conn;
    } catch (e) {
      if (e instanceof StartError) throw e;
      if (abort.signal.aborted) {
        // stop() while starting: the user's choice, not a failure (no backoff).
        this.setState('stopped');
        throw new StartError('cancelled', `the MCP server "${d.name}" was stopped while it was starting`);
      }
      if (needsSignIn(e)) {
        // Not a failure to back off from: nothing changes until the user signs in.
        this.lastError = `needs sign-in: ${this.o.signInHint ?? 'run "Snowpea: Sign in to MCP server"'}`;
        this.setState('needs-auth');
        this.o.logger.info(`MCP server ${d.name} needs sign-in`);
        throw new StartError('unavailable', `the MCP server "${d.name}" needs the user to sign in (${this.lastError}); ask the user to sign in, then try again`);
      }
      if (e instanceof McpConfigError) {
        this.lastError = e.message;
        this.setState('failed');
        throw new StartError('unavailable', `the MCP server "${d.name}" cannot start: ${e.message}`);
      }
      this.backoff.fail();
      this.lastError = (e as Error).message;
      this.setState('failed');
      this.o.logger.warn(`MCP server ${d.name} did not start: ${this.lastError}`);
      throw new StartError('failed', `the MCP server "${d.name}" did not start: ${this.lastError}`);
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
    }
  }

  private async askConsent(): Promise<void> {
    const d = this.o.def;
    let allowed: boolean;
    if (!this.o.confirm) {
      this.lastError = `starting a server defined by the workspace (${d.source.label}) needs the user's confirmation, and there is no way to ask here`;
      throw new StartError('denied', `the MCP server "${d.name}" was not started: ${this.lastError}`);
    }
    let remember: boolean;
    try {
      const view = consentView(d, await this.o.preview?.(d));
      const answer = await this.o.confirm(d, view);
      allowed = typeof answer === 'boolean' ? answer : answer.allow;
      remember = typeof answer === 'boolean' || answer.remember;
    } catch (e) {
      throw new StartError('denied', `could not ask the user whether to start the MCP server "${d.name}": ${(e as Error).message}`);
    }
    if (remember) this.o.cache.setConsent(d.hash, d.name, allowed);
    else this.runConsent = { hash: d.hash, allow: allowed };
    if (!allowed) {
      this.checkAccess();
      this.tools = [];
      this.toolsFrom = 'none';
      this.o.onTools();
      this.o.onState();
    }
  }

  private crashed(conn: McpConnection, why: string): void {
    if (this.conn !== conn) return;
    this.conn = undefined;
    this.backoff.fail();
    this.lastError = `crashed: ${why}`;
    this.setState('crashed');
    this.o.logger.warn(`MCP server ${this.o.def.name} ${this.lastError}`);
    void conn.close();
  }

  private setTools(tools: McpToolInfo[]): void {
    this.tools = tools;
    this.toolsFrom = 'live';
    try {
      this.o.cache.setTools(this.o.def.hash, this.o.def.name, tools);
    } catch (e) {
      this.o.logger.warn(`MCP tool cache could not be written: ${(e as Error).message}`);
    }
    this.o.onTools();
    this.o.onState();
  }

  private setState(s: McpServerState): void {
    this.state = s;
    this.o.onState();
  }

  /** Calls a tool; every failure is a ToolResult (never a throw). */
  async call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const name = this.o.def.name;
    let conn: McpConnection;
    try {
      // The running tool card shows this while the server starts; Stop cancels the call.
      if (this.usable() && this.state !== 'running') ctx.onOutput?.(`starting the MCP server "${name}"…\n`);
      conn = await this.ensureStarted();
    } catch (e) {
      return e instanceof StartError ? errorResult(e.code, e.message) : errorResult('failed', (e as Error).message);
    }
    const timeoutS = ctx.settings['mcp.callTimeoutS'];
    try {
      const r = (await conn.client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutS * 1000, signal: ctx.signal })) as McpCallResult;
      this.backoff.succeed();
      return await toToolResult(r, { server: name, tool, ctx });
    } catch (e) {
      if (ctx.signal.aborted) return errorResult('cancelled', `${tool} on the MCP server "${name}" was cancelled`);
      if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
        return errorResult('timeout', `the MCP server "${name}" did not answer ${tool} within ${timeoutS} s (mcp.callTimeoutS); the call was cancelled. The server may be stuck; try something else or ask the user to check it.`);
      }
      if ((e instanceof McpError && e.code === ErrorCode.ConnectionClosed) || this.conn !== conn) {
        return errorResult('failed', `the MCP server "${name}" crashed during ${tool} (${conn.whyClosed()}); it will be restarted on the next call`);
      }
      if (!(e instanceof McpError)) {
        // The transport itself failed (an HTTP server went away, a pipe broke): reconnect next time.
        this.crashed(conn, `the connection failed: ${(e as Error).message}`);
        return errorResult('failed', `the MCP server "${name}" could not be reached for ${tool} (${(e as Error).message}); it will be reconnected on the next call`);
      }
      const msg = e.message.replace(/^(MCP error -?\d+: )+/, '');
      return errorResult('failed', `the MCP server "${name}" returned an error for ${tool}: ${msg}`);
    }
  }

  /** Stops the server (kills a stdio server's process tree); it starts again on the next use unless disposed. */
  async stop(dispose = false): Promise<void> {
    if (dispose) this.disposed = true;
    const starting = this.starting;
    const conn = this.conn;
    this.conn = undefined;
    this.startAbort?.abort();
    if (conn) await conn.close();
    if (starting) await starting.then((c) => c.close(), () => undefined);
    if (this.state === 'running' || this.state === 'starting' || dispose) this.setState('stopped');
  }
}
