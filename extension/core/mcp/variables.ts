/**
 * Substitutes the variables of a server definition at start time: `${env:NAME}`,
 * `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` (`${/}`),
 * `${input:id}` through a resolver (VS Code asks the user; the core has no way to, so without one
 * it is a clear error), and in `.mcp.json` also `${NAME}` / `${NAME:-default}`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROVIDER_KEY_VARS, scrubEnv } from '../os/child-env';
import { serverLoadedFiles } from './entry-files';
import type { McpInputDef, McpServerDef, ResolvedServer } from './types';

export type InputResolver = (input: McpInputDef, server: McpServerDef) => Promise<string | undefined>;

export interface ResolveOptions {
  workspaceRoot?: string;
  env: NodeJS.ProcessEnv;
  resolveInput?: InputResolver;
}

export class McpConfigError extends Error {}

const VAR_RE = /\$\{([^}]*)\}/g;

async function substitute(text: string, def: McpServerDef, o: ResolveOptions, inputs: Map<string, string>): Promise<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(VAR_RE)) names.add(m[1]);
  const values = new Map<string, string>();
  for (const v of names) values.set(v, await valueOf(v, def, o, inputs));
  return text.replace(VAR_RE, (_, v: string) => values.get(v) ?? '');
}

async function valueOf(v: string, def: McpServerDef, o: ResolveOptions, inputs: Map<string, string>): Promise<string> {
  const root = o.workspaceRoot ?? process.cwd();
  if (v === 'workspaceFolder' || v === 'workspaceRoot') return root;
  if (v === 'workspaceFolderBasename') return path.basename(root);
  if (v === 'userHome') return os.homedir();
  if (v === 'pathSeparator' || v === '/') return path.sep;
  if (v.startsWith('env:')) return envValue(v.slice(4), def, o) ?? '';
  if (v.startsWith('input:')) return inputValue(v.slice(6), def, o, inputs);
  const shell = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(v);
  if (shell && def.source.kind === 'mcp-json') return envValue(shell[1], def, o) ?? shell[2] ?? '';
  throw new McpConfigError(`${def.source.label}: server "${def.name}" uses \${${v}}, which Snowpea does not support; use \${env:NAME} or write the value itself`);
}

const PROVIDER_KEYS = new Set(PROVIDER_KEY_VARS.map((k) => k.toUpperCase()));

/**
 * An environment variable's value for a definition. A server the workspace defined reads the
 * scrubbed environment (as its process would get it): a model-provider key, or a variable holding
 * a credential Snowpea was given, is refused by name instead of handed to a command or a URL the
 * repository chose (red team N5).
 */
function envValue(name: string, def: McpServerDef, o: ResolveOptions): string | undefined {
  if (!def.source.workspace) return o.env[name];
  const refused = (why: string) =>
    new McpConfigError(`${def.source.label}: server "${def.name}" asks for \${env:${name}}, ${why}; a server defined by the workspace cannot read it (define the server in your user settings if it needs it)`);
  if (PROVIDER_KEYS.has(name.toUpperCase())) throw refused('a model-provider key');
  const value = o.env[name];
  if (value !== undefined && scrubEnv({ [name]: value })[name] !== value) throw refused('which holds a credential Snowpea was given');
  return value;
}

async function inputValue(id: string, def: McpServerDef, o: ResolveOptions, inputs: Map<string, string>): Promise<string> {
  const known = inputs.get(id);
  if (known !== undefined) return known;
  const input = def.inputs?.find((i) => i.id === id) ?? { id };
  if (!o.resolveInput) {
    const what = input.description ? ` (${input.description})` : '';
    throw new McpConfigError(
      `${def.source.label}: server "${def.name}" needs \${input:${id}}${what}, which only VS Code can ask for; outside VS Code put the value in an environment variable and use \${env:NAME} instead`,
    );
  }
  const value = (await o.resolveInput(input, def)) ?? input.default;
  if (value === undefined) throw new McpConfigError(`server "${def.name}": no value was given for \${input:${id}}`);
  inputs.set(id, value);
  return value;
}

/** KEY=VALUE lines (# comments, optional quotes), as VS Code's envFile reads them. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

/** The definition ready to start. `inputs` remembers `${input:...}` answers for the session. Throws McpConfigError. */
export async function resolveServerDef(def: McpServerDef, o: ResolveOptions, inputs = new Map<string, string>()): Promise<ResolvedServer> {
  if (def.error) throw new McpConfigError(def.error);
  const sub = (s: string) => substitute(s, def, o, inputs);
  const subRecord = async (r: Record<string, string> | undefined) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r ?? {})) out[k] = await sub(v);
    return out;
  };
  const root = o.workspaceRoot ?? process.cwd();
  if (def.transport !== 'stdio') {
    return { transport: def.transport, url: await sub(def.url!), headers: await subRecord(def.headers), args: [], env: {} };
  }
  let env: Record<string, string> = {};
  if (def.envFile) {
    const file = path.resolve(root, await sub(def.envFile));
    try {
      env = parseEnvFile(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new McpConfigError(`server "${def.name}": its envFile ${file} could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  Object.assign(env, await subRecord(def.env));
  const args: string[] = [];
  for (const a of def.args ?? []) args.push(await sub(a));
  const command = await sub(def.command!);
  const cwd = def.cwd ? path.resolve(root, await sub(def.cwd)) : o.workspaceRoot;
  const code = def.source.workspace && o.workspaceRoot ? serverLoadedFiles(command, args, cwd ?? root, o.workspaceRoot) : undefined;
  let workspaceCode: ResolvedServer['workspaceCode'];
  if (code?.entry) {
    const real = fs.realpathSync(o.workspaceRoot!);
    workspaceCode = { entry: path.relative(real, code.entry).split(path.sep).join('/'), via: code.via!, files: code.files.length, truncated: code.truncated };
  }
  return { transport: 'stdio', command, args, env, cwd, headers: {}, ...(workspaceCode ? { workspaceCode } : {}) };
}

/** One line naming what a server runs or where it connects, for lists. */
export function describeTarget(def: McpServerDef): string {
  if (def.transport === 'stdio') return [def.command ?? '', ...(def.args ?? [])].join(' ').trim();
  return def.url ?? '';
}
