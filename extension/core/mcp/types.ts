/** Where an MCP server was defined. Workspace-defined servers need Workspace Trust and a first-start confirmation. */
export interface McpSource {
  kind: 'vscode' | 'mcp-json' | 'settings';
  /** Shown where servers are listed: `.vscode/mcp.json`, `.mcp.json`, or the settings source that set `mcp.servers`. */
  label: string;
  /** Defined by the workspace (its files or its settings) rather than by the user. */
  workspace: boolean;
  /** The config file, for file sources. */
  file?: string;
}

export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** A VS Code `inputs` entry that `${input:id}` refers to. */
export interface McpInputDef {
  id: string;
  type?: string;
  description?: string;
  password?: boolean;
  default?: string;
}

/** One server as written in its source, variables not yet substituted. */
export interface McpServerDef {
  name: string;
  source: McpSource;
  /** stdio for command servers; http (Streamable HTTP, falling back to SSE) or sse for url servers. */
  transport: McpTransportKind;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** The `inputs` of its file that `${input:...}` may refer to. */
  inputs?: McpInputDef[];
  /** sha256 of the definition as written (and the workspace, for workspace servers): the key of consent and the tool cache. */
  hash: string;
  /** A problem in the definition that keeps it from starting. */
  error?: string;
}

/** The definition with every variable substituted, ready to start. */
export interface ResolvedServer {
  transport: McpTransportKind;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** A workspace server's code in the workspace (entry-files.ts): what the consent says runs. */
  workspaceCode?: { entry: string; via: 'npx' | 'node' | 'python' | 'command'; files: number; truncated: boolean };
}

/** A tool as its server lists it (and as the cache keeps it). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export type McpServerState =
  /** Not started this session (its tools may come from the cache). */
  | 'idle'
  | 'starting'
  | 'running'
  /** Exited on its own; restarted (with backoff) on the next use. */
  | 'crashed'
  /** Start failed; retried with backoff on the next use. */
  | 'failed'
  /** Workspace-defined in an untrusted workspace. */
  | 'blocked'
  /** The user declined to start it. */
  | 'declined'
  /** A hosted server that answered 401 with OAuth metadata: the user has to sign in (oauth-signin.ts). */
  | 'needs-auth'
  /** Its definition cannot be used (see lastError). */
  | 'error'
  | 'stopped';

export interface McpServerStatus {
  name: string;
  source: McpSource;
  transport: McpTransportKind;
  /** `npx -y server` or the url. */
  target: string;
  /** Names of the environment variables the definition sets (values are not listed), and its envFile. */
  envNames?: string[];
  envFile?: string;
  state: McpServerState;
  toolCount: number;
  /** Where the registered tool list came from. */
  toolsFrom: 'live' | 'cache' | 'none';
  lastError?: string;
  /** Restarts after crashes or failed starts this session. */
  restarts: number;
}
