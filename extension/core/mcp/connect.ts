/**
 * Opens one connection to an MCP server on the SDK's Client: stdio (our process-group transport),
 * Streamable HTTP, or legacy SSE (also the fallback when a url server does not speak Streamable
 * HTTP). Returns once the server is initialized and its tool list is read.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { scrubEnv } from '../os/child-env';
import { NeedsSignInError } from './oauth-provider';
import { ProcessStdioTransport } from './stdio-transport';
import type { McpToolInfo, McpTransportKind, ResolvedServer } from './types';

export const CLIENT_INFO = { name: 'snowpea', version: '0.1.0' };

export interface ConnectOptions {
  /** For messages. */
  serverName: string;
  /** Initialize plus the first tool list must finish within this. */
  timeoutMs: number;
  /** The environment a stdio server starts with (without provider API keys), before its own `env`. */
  baseEnv: NodeJS.ProcessEnv;
  /** The server said its tools changed, and here is the new list. */
  onToolsChanged?(tools: McpToolInfo[]): void;
  /** A stdio server's process started (before it has answered anything). */
  onSpawn?(pid: number): void;
  /** The connection ended without close() (a crash); `why` names the exit status and stderr. */
  onUnexpectedClose?(why: string): void;
  /** Aborts the start (initialize and the first tool list); a stdio process is killed. */
  signal?: AbortSignal;
  /** OAuth for url servers (oauth-provider.ts): sends stored tokens, refreshes them, reports NeedsSignInError. */
  authProvider?: OAuthClientProvider;
}

/** The NeedsSignInError behind a failed start, if that is why it failed. */
export function needsSignIn(e: unknown): NeedsSignInError | undefined {
  for (let x = e, i = 0; x && i < 8; x = (x as Error).cause, i++) if (x instanceof NeedsSignInError) return x;
  return undefined;
}

export interface McpConnection {
  client: Client;
  /** The transport in use (http may have fallen back to sse). */
  kind: McpTransportKind;
  tools: McpToolInfo[];
  pid?: number;
  /** Why the connection ended on its own, for error messages ("exit code 1; stderr: ..."). */
  whyClosed(): string;
  close(): Promise<void>;
}

export function toToolInfo(t: Tool): McpToolInfo {
  const title = t.title ?? t.annotations?.title;
  return {
    name: t.name,
    ...(title ? { title } : {}),
    ...(t.description ? { description: t.description } : {}),
    inputSchema: (t.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
  };
}

export async function listAllTools(client: Client, timeoutMs: number, signal?: AbortSignal): Promise<McpToolInfo[]> {
  const out: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const r = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs, signal });
    out.push(...r.tools.map(toToolInfo));
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}

function makeTransport(r: ResolvedServer, kind: McpTransportKind, o: ConnectOptions): Transport {
  if (kind === 'stdio') return new ProcessStdioTransport({ command: r.command!, args: r.args, env: { ...scrubEnv(o.baseEnv), ...r.env }, cwd: r.cwd, onSpawn: o.onSpawn });
  const url = new URL(r.url!);
  const opts = { requestInit: { headers: r.headers }, authProvider: o.authProvider };
  return kind === 'sse' ? new SSEClientTransport(url, opts) : new StreamableHTTPClientTransport(url, opts);
}

async function open(r: ResolvedServer, kind: McpTransportKind, o: ConnectOptions): Promise<McpConnection> {
  const transport = makeTransport(r, kind, o);
  let closing = false;
  let toolsHandler: ((tools: McpToolInfo[]) => void) | undefined;
  const client = new Client(CLIENT_INFO, {
    capabilities: {},
    listChanged: {
      tools: {
        onChanged: (error, tools) => {
          if (!error && tools) toolsHandler?.(tools.map(toToolInfo));
        },
      },
    },
  });
  const stdio = transport instanceof ProcessStdioTransport ? transport : undefined;
  const whyClosed = () => {
    const exit = stdio?.exitDescription();
    const err = stdio?.stderrTail();
    const parts = [exit ? `the process ended (${exit})` : 'the connection closed'];
    if (err) parts.push(`stderr: ${err.split('\n').slice(-5).join(' | ')}`);
    return parts.join('; ');
  };
  client.onclose = () => {
    if (!closing) o.onUnexpectedClose?.(whyClosed());
  };
  const close = async () => {
    closing = true;
    try {
      if (stdio) await stdio.close();
      else await client.close();
    } catch {
      /* already gone */
    }
  };
  try {
    await client.connect(transport, { timeout: o.timeoutMs, signal: o.signal });
    const tools = await listAllTools(client, o.timeoutMs, o.signal);
    toolsHandler = o.onToolsChanged;
    return { client, kind, tools, pid: stdio?.pid, whyClosed, close };
  } catch (e) {
    const why = stdio && (stdio.exitDescription() || stdio.stderrTail()) ? ` (${whyClosed()})` : '';
    await close();
    if (needsSignIn(e)) throw needsSignIn(e);
    throw new Error(`${(e as Error).message}${why}`, { cause: e });
  }
}

/** Connects; an http server that fails over Streamable HTTP is tried once more over SSE. */
export async function connectServer(r: ResolvedServer, o: ConnectOptions): Promise<McpConnection> {
  if (r.transport !== 'http') return open(r, r.transport, o);
  try {
    return await open(r, 'http', o);
  } catch (first) {
    // A server that wants sign-in spoke HTTP: SSE would only ask again.
    if (o.signal?.aborted || needsSignIn(first)) throw first;
    try {
      return await open(r, 'sse', o);
    } catch (second) {
      throw new Error(`Streamable HTTP failed (${(first as Error).message}), and so did SSE (${(second as Error).message})`, { cause: second });
    }
  }
}
