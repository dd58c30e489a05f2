/**
 * Reads MCP server definitions from the three places users keep them: `.vscode/mcp.json`
 * (VS Code's format: `servers`, `inputs`), `.mcp.json` (the common `mcpServers` format) and the
 * setting `mcp.servers`. A later source replaces a same-named server of an earlier one:
 * `.mcp.json`, then `.vscode/mcp.json`, then the setting. Nothing throws: a broken file or entry
 * becomes a problem line (and an entry with `error` when the server itself is unusable).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseJsonc } from './jsonc';
import { workspaceScriptDigests } from './script-digest';
import type { McpInputDef, McpServerDef, McpSource, McpTransportKind } from './types';

export interface McpConfigOptions {
  workspaceRoot?: string;
  /** The merged `mcp.servers` setting. */
  settingServers?: Record<string, Record<string, unknown>>;
  /** Where `mcp.servers` came from (LoadedSettings.origin['mcp.servers']); "default" when unset. */
  settingOrigin?: string;
  /** Whether mcp.servers came from a workspace source (LoadedSettings.scope; never guessed from the name): such servers ask before their first start. */
  settingIsWorkspace?: boolean;
}

export interface McpConfig {
  servers: McpServerDef[];
  /** Problems with files or entries, one line each, naming the source. */
  problems: string[];
}

type RawEntry = Record<string, unknown>;

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as RawEntry)[k])]));
  return v;
}

/**
 * The consent and cache key: the definition as written, its source kind, and (for workspace
 * servers) the workspace and the content of the workspace files it runs (script-digest.ts).
 */
export function definitionHash(def: Omit<McpServerDef, 'hash' | 'error' | 'inputs'>, workspaceRoot?: string): string {
  const { name, source, ...rest } = def;
  const files = source.workspace ? workspaceScriptDigests(def, workspaceRoot) : {};
  const key = { name, kind: source.kind, workspace: source.workspace ? (workspaceRoot ?? '') : null, def: rest, ...(Object.keys(files).length ? { files } : {}) };
  return createHash('sha256').update(JSON.stringify(canonical(key))).digest('hex');
}

/** The hash of a loaded definition as of now (its workspace files may have changed since it was loaded). */
export function currentDefinitionHash(def: McpServerDef, workspaceRoot?: string): string {
  const { hash: _hash, error: _error, inputs: _inputs, ...rest } = def;
  return definitionHash(rest, workspaceRoot);
}

function stringRecord(v: unknown, what: string): Record<string, string> | string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) return `${what} must be an object of strings`;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null || x === undefined) continue;
    if (typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean') return `${what}.${k} must be a string`;
    out[k] = String(x);
  }
  return out;
}

const TYPES: Record<string, McpTransportKind> = { stdio: 'stdio', http: 'http', 'streamable-http': 'http', streamableHttp: 'http', sse: 'sse' };

/** Turns one raw entry into a definition; an unusable entry keeps its name and carries `error`. */
export function parseServerEntry(name: string, raw: unknown, source: McpSource, workspaceRoot?: string, inputs?: McpInputDef[]): McpServerDef {
  const fail = (error: string): McpServerDef => ({ name, source, transport: 'stdio', hash: '', error: `${source.label}: server "${name}": ${error}` });
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('expected an object with "command" or "url"');
  const e = raw as RawEntry;
  const type = typeof e.type === 'string' ? TYPES[e.type] : undefined;
  if (e.type !== undefined && !type) return fail(`unknown "type" ${JSON.stringify(e.type)} (use stdio, http or sse)`);
  const transport: McpTransportKind = type ?? (e.url !== undefined ? 'http' : 'stdio');
  const def: Omit<McpServerDef, 'hash'> = { name, source, transport };
  if (transport === 'stdio') {
    if (typeof e.command !== 'string' || !e.command.trim()) return fail('"command" (a string) is required for a stdio server');
    def.command = e.command;
    if (e.args !== undefined) {
      if (!Array.isArray(e.args) || e.args.some((a) => typeof a !== 'string' && typeof a !== 'number')) return fail('"args" must be an array of strings');
      def.args = e.args.map(String);
    }
    const env = stringRecord(e.env, '"env"');
    if (typeof env === 'string') return fail(env);
    if (env) def.env = env;
    if (e.envFile !== undefined) {
      if (typeof e.envFile !== 'string') return fail('"envFile" must be a string');
      def.envFile = e.envFile;
    }
    if (e.cwd !== undefined) {
      if (typeof e.cwd !== 'string') return fail('"cwd" must be a string');
      def.cwd = e.cwd;
    }
  } else {
    if (typeof e.url !== 'string' || !e.url.trim()) return fail(`"url" (a string) is required for an ${transport} server`);
    def.url = e.url;
    const headers = stringRecord(e.headers, '"headers"');
    if (typeof headers === 'string') return fail(headers);
    if (headers) def.headers = headers;
  }
  const hash = definitionHash(def, workspaceRoot);
  return inputs?.length ? { ...def, inputs, hash } : { ...def, hash };
}

function readInputs(v: unknown): McpInputDef[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((i): i is RawEntry => !!i && typeof i === 'object' && typeof (i as RawEntry).id === 'string')
    .map((i) => ({
      id: i.id as string,
      type: typeof i.type === 'string' ? i.type : undefined,
      description: typeof i.description === 'string' ? i.description : undefined,
      password: i.password === true,
      default: typeof i.default === 'string' ? i.default : undefined,
    }));
}

/** Reads one config file; a missing file is no servers, a broken one a problem. */
function readFile(file: string, key: 'servers' | 'mcpServers', source: McpSource, workspaceRoot: string | undefined, problems: string[]): McpServerDef[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (e) {
    problems.push(`${source.label}: not valid JSON (${(e as Error).message})`);
    return [];
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    problems.push(`${source.label}: expected an object with "${key}"`);
    return [];
  }
  const servers = (json as RawEntry)[key];
  if (servers === undefined) {
    problems.push(`${source.label}: no "${key}" object, so no servers are defined there`);
    return [];
  }
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) {
    problems.push(`${source.label}: "${key}" must be an object of server name -> definition`);
    return [];
  }
  const inputs = key === 'servers' ? readInputs((json as RawEntry).inputs) : undefined;
  return Object.entries(servers as RawEntry).map(([name, raw]) => parseServerEntry(name, raw, source, workspaceRoot, inputs));
}

export function loadMcpConfig(opts: McpConfigOptions): McpConfig {
  const problems: string[] = [];
  const lists: McpServerDef[][] = [];
  const root = opts.workspaceRoot;
  if (root) {
    const mcpJson = path.join(root, '.mcp.json');
    lists.push(readFile(mcpJson, 'mcpServers', { kind: 'mcp-json', label: '.mcp.json', workspace: true, file: mcpJson }, root, problems));
    const vscodeJson = path.join(root, '.vscode', 'mcp.json');
    lists.push(readFile(vscodeJson, 'servers', { kind: 'vscode', label: '.vscode/mcp.json', workspace: true, file: vscodeJson }, root, problems));
  }
  const origin = opts.settingOrigin ?? 'settings';
  const settingSource: McpSource = { kind: 'settings', label: `setting mcp.servers (${origin})`, workspace: opts.settingIsWorkspace === true };
  lists.push(Object.entries(opts.settingServers ?? {}).map(([name, raw]) => parseServerEntry(name, raw, settingSource, root)));
  const byName = new Map<string, McpServerDef>();
  for (const def of lists.flat()) {
    const earlier = byName.get(def.name);
    if (earlier) problems.push(`server "${def.name}" from ${earlier.source.label} is replaced by the one in ${def.source.label}`);
    byName.set(def.name, def);
  }
  for (const def of byName.values()) if (def.error) problems.push(def.error);
  return { servers: [...byName.values()], problems };
}
