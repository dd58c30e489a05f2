import * as fs from 'node:fs';
import * as path from 'node:path';
import { Agent } from '../core/agent/agent';
import { closeBrowserOnRelease } from '../core/browser';
import { silentLogger, type Logger } from '../core/log';
import { modelCapabilities } from '../core/model/capabilities';
import { coreProviders, UnknownProviderError, type ModelProvider } from '../core/model/providers';
import { keyEnvVar, keyTarget } from '../core/model/providers/anthropic';
import type { ModelClient } from '../core/model/types';
import { fileSources, readSettingsFile, snowpeaHome } from '../core/settings/files';
import { formatIssue, mergeSettings, workspaceSpendNotice, type LoadedSettings, type SettingsSource } from '../core/settings/load';
import { loadMcpConfig, McpManager } from '../core/mcp';
import type { Settings } from '../core/settings/schema';
import { openStateDb, type StateDb } from '../core/store';
import { createDiskFileReader, createDiskFileWriter } from '../core/tools/disk-reader';
import { createBuiltinTools } from '../core/tools/index';
import { ToolRegistry } from '../core/tools/registry';
import { registerSecretValue } from '../core/os/child-env';
import { broadRootWarning } from '../core/tools/policy/broad-root';
import { keyForEndpoint, workspaceEndpointConfirmed } from './key-route';
import { cliStartingTools } from './mcp-wait';
import { missingKeyProblem, withKeyHint } from './api-key';
import { budgetFlag, endpointFlag, endpointProblem, FlagError, maxRoundsFlag } from './flag-checks';
import { modelClientLogger, openWithNoticesOnce } from './quiet-logs';
import { interactive, terminalAskUser, terminalConfirm } from './terminal';
import { terminalApprover } from './terminal-approver';
import { terminalBudgetAsker } from './terminal-budget';
import { block } from './terminal-text';
import { ApprovalMemory } from '../core/tools/policy/memory';
import { CheckpointStore, workspaceCoordinationDir } from '../core/checkpoints';
import { CliCheckpoints } from './checkpoints';

export interface CommonFlags {
  settings?: string;
  'base-url'?: string;
  model?: string;
  'api-key'?: string;
  'max-rounds'?: string;
  /** `--budget`: this turn's budget, or turn=…,session=… (flag-checks.ts budgetFlag). */
  budget?: string;
  'state-db'?: string;
  yes?: boolean;
  verbose?: boolean;
}

/**
 * Notes on stderr; their text often names workspace files, settings values and server errors, so it is escaped (terminal-text.ts).
 * Errors take the CLI's one error prefix, `snowpea: `; the other levels say theirs (`snowpea warn: `).
 */
export function stderrLogger(verbose: boolean): Logger {
  const w = (prefix: string) => (m: string) => void process.stderr.write(`${prefix}: ${block(m)}\n`);
  return { error: w('snowpea'), warn: w('snowpea warn'), info: verbose ? w('snowpea info') : () => {}, debug: verbose ? w('snowpea debug') : () => {} };
}

/** Settings for the CLI: defaults, ~/.snowpea, .snowpea, --settings FILE, then flags and environment. */
export function cliSettings(cwd: string, flags: CommonFlags, log: Logger): Settings {
  return cliLoadedSettings(cwd, flags, log).settings;
}

export function cliLoadedSettings(cwd: string, flags: CommonFlags, log: Logger, o: { withoutWorkspaceEndpoint?: boolean } = {}): LoadedSettings {
  const files = fileSources(cwd);
  // A workspace endpoint the user did not confirm is left out (red team N9): the user's own, or the default, applies.
  if (o.withoutWorkspaceEndpoint) {
    for (const f of files) {
      if (f.scope !== 'workspace') continue;
      const flat = { ...(f.values as Record<string, unknown>) };
      const model = flat.model as Record<string, unknown> | undefined;
      for (const k of ['model.baseUrl', 'model.provider']) delete flat[k];
      if (model && typeof model === 'object') flat.model = Object.fromEntries(Object.entries(model).filter(([k]) => k !== 'baseUrl' && k !== 'provider'));
      f.values = flat;
    }
  }
  const sources: Array<SettingsSource & { error?: string }> = [...files];
  if (flags.settings) sources.push(extraSettingsFile(cwd, flags.settings));
  // Flags and OPENAI_BASE_URL are checked strictly: a bad one is an error, never a fallback.
  const fromFlags: Record<string, unknown> = {};
  const baseUrl = endpointFlag(flags['base-url'], process.env.OPENAI_BASE_URL);
  if (baseUrl) fromFlags['model.baseUrl'] = baseUrl;
  if (flags.model) fromFlags['model.name'] = flags.model;
  if (flags['max-rounds'] !== undefined) fromFlags['agent.maxRounds'] = maxRoundsFlag(flags['max-rounds']);
  sources.push({ name: 'command-line flags', values: fromFlags });
  const loaded = mergeSettings(sources);
  // --budget sets the budgets it names; the others stay as the settings files have them.
  if (flags.budget !== undefined) {
    loaded.settings['agent.budget'] = { ...loaded.settings['agent.budget'], ...budgetFlag(flags.budget) };
    loaded.origin['agent.budget'] = 'command-line flags';
    loaded.scope['agent.budget'] = 'user';
  }
  for (const s of sources) if (s.error) log.warn(s.error);
  for (const i of loaded.issues) {
    if (i.source === 'command-line flags') throw new FlagError(formatIssue(i));
    log.warn(formatIssue(i));
  }
  return loaded;
}

/** `--settings FILE`: read like the other settings files; a missing file or a folder is named as such. */
function extraSettingsFile(cwd: string, name: string): SettingsSource & { error?: string } {
  const file = path.resolve(cwd, name);
  const f = readSettingsFile(`--settings ${name}`, file);
  if (f.values === undefined && !f.error) {
    const isDir = fs.statSync(file, { throwIfNoEntry: false })?.isDirectory();
    f.error = isDir ? `--settings ${name} is a folder; give the settings file (a .json file) itself` : `settings file ${name} not found`;
  }
  return f;
}

/**
 * MCP servers from .mcp.json, .vscode/mcp.json and mcp.servers, their tools attached to the
 * registry (from the cache at once, live when a server starts). The CLI trusts the folder it
 * runs in; a workspace-defined server's first start asks on the terminal (or is skipped
 * without one, unless --yes).
 */
export function cliMcp(cwd: string, loaded: LoadedSettings, registry: ToolRegistry, flags: CommonFlags, log: Logger): McpManager {
  const config = loadMcpConfig({ workspaceRoot: cwd, settingServers: loaded.settings['mcp.servers'], settingOrigin: loaded.origin['mcp.servers'], settingIsWorkspace: loaded.scope['mcp.servers'] === 'workspace' });
  const manager = new McpManager({
    servers: config.servers,
    problems: config.problems,
    cacheDir: path.join(snowpeaHome(), 'mcp'),
    workspaceRoot: cwd,
    startTimeoutS: loaded.settings['mcp.startTimeoutS'],
    logger: log,
    // The CLI keeps no OAuth tokens: a hosted server that wants sign-in says so and the editor signs in.
    oauth: { signInHint: 'the CLI does not sign in to MCP servers; use the Snowpea editor extension, or give the server an Authorization header in "headers"' },
    // --yes is consent for this run only; without a terminal nobody was asked, so nothing is remembered either way.
    confirmServer: async (_def, view) => (flags.yes ? { allow: true, remember: false } : interactive() ? await terminalConfirm(view.prompt) : { allow: false, remember: false }),
  });
  manager.attach(registry);
  return manager;
}

/** API key: --api-key, OPENAI_API_KEY (ANTHROPIC_API_KEY for model.provider "anthropic"), or ~/.snowpea/credentials.json ({"apiKey": "..."}, mode 0600). */
export function cliApiKey(flags: CommonFlags, log: Logger, envVar: 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY' = 'OPENAI_API_KEY'): string {
  if (flags['api-key']) return flags['api-key'];
  if (process.env[envVar]) return process.env[envVar];
  const file = path.join(snowpeaHome(), 'credentials.json');
  try {
    const st = fs.statSync(file);
    if ((st.mode & 0o077) !== 0) log.warn(`${file} is readable by others; run: chmod 600 ${file}`);
    const key = (JSON.parse(fs.readFileSync(file, 'utf8')) as { apiKey?: unknown }).apiKey;
    if (typeof key === 'string' && key) return key;
  } catch {
    /* no credentials file */
  }
  return 'none';
}

/** Where the CLI's state.db is: --state-db, SNOWPEA_STATE_DB, else ~/.snowpea/state.db. Its folder also holds the checkpoints. */
export function cliStateDbFile(flags: CommonFlags): string {
  // An empty value counts as unset (path.resolve('') would be the current folder).
  return flags['state-db'] || process.env.SNOWPEA_STATE_DB || path.join(snowpeaHome(), 'state.db');
}

/** The CLI's state.db; `readOnly` (sessions list/show/export) reads a snapshot without the lock, changing nothing. */
export async function openCliStore(flags: CommonFlags, log: Logger, opts: { readOnly?: boolean } = {}): Promise<StateDb> {
  const file = cliStateDbFile(flags);
  const db = await openWithNoticesOnce(log, (quiet) => openStateDb({ file, log: quiet, readOnly: opts.readOnly }));
  return db;
}

/** The checkpoint store of a workspace; the shadow repositories live in `checkpoints/` beside state.db. */
export function cliCheckpointStore(workspaceRoot: string, flags: CommonFlags, settings: () => Settings, log: Logger): CheckpointStore {
  const stateDir = path.dirname(cliStateDbFile(flags));
  // The workspace's writer lock and restore journal are the user's, shared with VS Code (writer-lock.ts).
  return new CheckpointStore({ workspaceRoot, dir: path.join(stateDir, 'checkpoints'), settings, logger: log, keepOut: [stateDir, snowpeaHome()], coordinationDir: workspaceCoordinationDir() });
}

/** Where the CLI's agent keeps session scratch files and the attachment store (`<scratch>/attachments`, as the Agent makes it). */
export function cliScratchRoot(): string {
  return path.join(snowpeaHome(), 'scratch');
}

export function cliRegistry(log?: Logger): ToolRegistry {
  return new ToolRegistry(createBuiltinTools(), log ? { onListenerError: (e) => log.error(`a tool registry listener failed: ${String(e)}`) } : {});
}

/**
 * The client model.provider names, from the core's providers (the CLI has no vscode-lm: only VS
 * Code has the editor's language models). A provider the CLI lacks is said, and the
 * OpenAI-compatible endpoint used instead.
 */
export function cliModelClient(settings: Settings, apiKey: string, log: Logger): ModelClient {
  const providers = coreProviders();
  let provider: ModelProvider;
  try {
    provider = providers.get(settings['model.provider']);
  } catch (e) {
    if (!(e instanceof UnknownProviderError)) throw e;
    log.warn(`${e.message}; the CLI uses the OpenAI-compatible endpoint ${settings['model.baseUrl']}`);
    provider = providers.get('openai-compatible');
  }
  return provider.createClient(settings, apiKey, modelClientLogger(log));
}

export interface CliAgent {
  agent: Agent;
  /** Absent when created with `withStore: false` (snowpea tools). */
  store?: StateDb;
  /** File checkpoints before each message; absent with `withStore: false`. */
  checkpoints?: CliCheckpoints;
  settings: Settings;
  mcp: McpManager;
  registry: ToolRegistry;
}

/**
 * The agent as the CLI runs it. Its registry holds every tool the editor has, tool_search and
 * delegate_task included; `withStore: false` (snowpea tools) opens no state.db.
 */
export async function createCliAgent(cwd: string, flags: CommonFlags, log: Logger, opts: { withStore?: boolean; needsKey?: boolean } = {}): Promise<CliAgent> {
  let loaded = cliLoadedSettings(cwd, flags, log);
  if (!(await workspaceEndpointConfirmed(loaded, log))) loaded = cliLoadedSettings(cwd, flags, silentLogger, { withoutWorkspaceEndpoint: true });
  const settings = loaded.settings;
  const badEndpoint = endpointProblem(settings['model.baseUrl']);
  if (badEndpoint) throw new FlagError(`model.baseUrl from ${loaded.origin['model.baseUrl']} is not usable: ${badEndpoint} (got ${JSON.stringify(settings['model.baseUrl'])}); nothing was sent`);
  const broad = broadRootWarning(cwd);
  if (broad) log.warn(broad);
  const spend = workspaceSpendNotice(loaded);
  if (spend) log.warn(spend);
  const userKey = cliApiKey(flags, log, keyEnvVar(settings));
  // `run` against OpenAI's or Anthropic's endpoint without any key: say so at once (nothing opened, nothing sent).
  const noKey = opts.needsKey ? missingKeyProblem(keyTarget(loaded).baseUrl, userKey, keyEnvVar(settings)) : null;
  if (noKey) throw new FlagError(noKey);
  // Tool processes, MCP servers and the browser get an environment without it (core/os/child-env.ts).
  registerSecretValue(userKey);
  const apiKey = await keyForEndpoint(loaded, userKey, log);
  const caps = modelCapabilities(settings['model.name'], settings);
  if (!caps.known) log.info(`model ${settings['model.name']} is not in the built-in table; assuming a ${caps.contextWindow}-token window${caps.supportsImages ? '' : ' and no vision'}`);
  const client = withKeyHint(cliModelClient(settings, apiKey, log), keyEnvVar(settings));

  const store = opts.withStore === false ? undefined : await openCliStore(flags, log);
  const checkpoints = store && new CliCheckpoints((root) => cliCheckpointStore(root, flags, () => settings, log), (sid) => store.getSession(sid)?.workspaceRoot ?? cwd);
  const registry = cliRegistry(log);
  const mcp = cliMcp(cwd, loaded, registry, flags, log);
  const agent = new Agent({
    workspaceRoot: cwd,
    settings: () => settings,
    client: () => client,
    registry,
    store,
    fileReader: createDiskFileReader(),
    fileWriter: createDiskFileWriter(),
    approver: terminalApprover(),
    approvals: new ApprovalMemory(!!flags.yes),
    askUser: terminalAskUser(),
    askBudget: terminalBudgetAsker({ yes: flags.yes }),
    logger: log,
    scratchRoot: cliScratchRoot(),
    apiKey: () => apiKey,
    startingTools: cliStartingTools(mcp),
    checkpoints,
    // A finished subagent's browser page closes with it (the rest close when the command ends).
    onSessionReleased: closeBrowserOnRelease(log),
  });
  return { agent, store, checkpoints, settings, mcp, registry };
}
