import { z } from 'zod';

/**
 * The one schema of every Snowpea setting. Keys are dotted (docs/design.md, Settings)
 * (`tools.repeatGuard`); VS Code exposes each as `snowpea.<key>`, settings files
 * may nest them (`{"tools": {"repeatGuard": false}}`) or write them flat.
 * package.json's contributes.configuration is generated from this table
 * (scripts/sync-config.ts) and a unit test fails when the two disagree.
 */
export interface SettingDef<T extends z.ZodType = z.ZodType> {
  schema: T;
  default: z.infer<T>;
  description: string;
  /**
   * Who may set it. 'any': every source. 'trusted': a workspace source only in a trusted workspace
   * (Restricted Mode ignores its workspace values). 'user': user sources only (user settings,
   * ~/.snowpea/settings.json, --settings, flags); a workspace value is ignored with a warning, since a
   * cloned repository must not widen approvals, choose programs to run, or route secrets.
   */
  trust: SettingTrust;
  /** Values from loosest to strictest: a workspace source may only move the setting toward the strict end. */
  strictness?: readonly string[];
  /**
   * A number a workspace source may only move one way: 'lower' (a smaller value, never a larger
   * one: rounds, waits) or 'higher' (a larger value or null, i.e. off: a compaction threshold a
   * repository must not pull down to force summaries).
   */
  workspaceMay?: 'lower' | 'higher';
  /**
   * What a value could do in a cloned repository's hands. Every key with a risk is guarded: user-only,
   * one-way or stricter-only for a workspace, or (endpoints and MCP servers) used only after the user's
   * consent; 'spend' keys a workspace may set, but the chat and the CLI name them (workspaceSpendNotice).
   * test/unit/settings/settings-table.test.ts holds every key to this.
   */
  risk?: SettingRisk;
}

export type SettingTrust = 'any' | 'trusted' | 'user';

/**
 * 'runs-program': starts or attaches to a program. 'sends-elsewhere': sends prompts, files or keys to
 * another server. 'widens-approvals': lets tools run without asking. 'prices': the cost the meter
 * shows. 'safety-net': a guard against loops, token waste or lost work. 'spend': how much a turn may
 * cost (model, rounds, thinking).
 */
export type SettingRisk = 'runs-program' | 'sends-elsewhere' | 'widens-approvals' | 'prices' | 'safety-net' | 'spend';

function def<T extends z.ZodType>(schema: T, dflt: z.infer<T>, description: string, trust: SettingTrust = 'any'): SettingDef<T> {
  return { schema, default: dflt, description, trust };
}

function narrowing<T extends z.ZodType>(strictness: readonly string[], d: SettingDef<T>): SettingDef<T> {
  return { ...d, strictness };
}

function oneWay<T extends z.ZodType>(workspaceMay: 'lower' | 'higher', d: SettingDef<T>): SettingDef<T> {
  return { ...d, workspaceMay };
}

function risky<T extends z.ZodType>(risk: SettingRisk, d: SettingDef<T>): SettingDef<T> {
  return { ...d, risk };
}

/** A switch a workspace may turn on but never off. */
const onOnly = ['false', 'true'] as const;

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.number().int().min(min).max(max);
const nullableInt = (min: number, max = Number.MAX_SAFE_INTEGER) => int(min, max).nullable();

export const settingDefs = {
  'tools.repeatGuard': risky('safety-net', narrowing(onOnly, def(z.boolean(), true, 'Stop loops and redundant reads: re-read stubs, identical-call warnings and refusals, loop suspicion. A workspace may only turn it on.'))),
  'tools.deferred': risky('safety-net', narrowing(onOnly, def(z.boolean(), true, 'Send only core tools eagerly and defer the rest (loaded on demand with tool_search). Set to false to send all schemas every round. A workspace may only turn it on.'))),
  'tools.eager': risky('spend', def(z.array(z.string().min(1)), [] as string[], 'Tool names to always send eagerly, such as a frequently used MCP tool.')),
  'tools.outputMaxChars': risky('safety-net', oneWay('lower', def(int(1000, 1_000_000), 20_000, 'Most characters of shell/execute_code output the model sees (head and tail kept; the full output is saved to a file). A workspace may only lower it.'))),
  'tools.readMaxLines': def(int(10, 100_000), 2000, 'Default number of lines read_file returns before asking the model to page with offset/limit.'),
  'tools.shellTimeoutS': def(int(1, 86_400), 120, 'Default timeout in seconds for shell and execute_code; the whole process tree is killed when it passes.'),
  'tools.diagnosticsAfterEdit': def(z.enum(['errors', 'errors+warnings', 'off']), 'errors' as 'errors' | 'errors+warnings' | 'off', 'After write_file or edit_file in VS Code, tell the model the problems in the edited file that were not there before (at most 20): "errors", "errors+warnings", or "off". Only a file whose language something checks waits for its language services (a language that had diagnostics in this window, one VS Code\'s own extensions check, or one another extension activates for; Markdown and plain text do not wait by default): until the file\'s diagnostics have been quiet for 0.25 s, 2 s when none change, 4 s at most. A file no editor shows is opened in a background tab meanwhile, since most language services check only those. The CLI has no language services and reports none.'),
  'agent.pruneToolOutputs': risky('safety-net', narrowing(onOnly, def(z.boolean(), true, 'Replace old tool outputs with stubs in outgoing requests. Set to false to send all results verbatim. A workspace may only turn it on.'))),
  'agent.pruneStrategy': def(z.enum(['rolling', 'cache-aware']), 'cache-aware' as 'rolling' | 'cache-aware', 'How old tool outputs are stubbed. "rolling": every request stubs every result older than agent.keepToolRounds. "cache-aware": the same rounds stay whole, but the cutoff moves only when what it would stub outweighs re-sending the uncached rest of the request at the model\'s cache prices, so stubs come in batches and the provider\'s prompt cache keeps hitting (with no caching it stubs exactly what rolling stubs).'),
  'agent.keepToolRounds': risky('safety-net', oneWay('lower', def(int(0, 10_000), 6, 'Number of recent tool rounds kept intact before pruning kicks in. A workspace may only lower it.'))),
  'agent.compactAt': risky('safety-net', oneWay('higher', def(z.number().min(0.2).max(1).nullable(), 0.8 as number | null, 'Compact the conversation when a request would pass this share of the model\'s context window (after the answer budget): the model summarizes the older rounds and later requests carry the summary instead; also when the provider answers that a request is too long. null: never compact (a request that does not fit ends the turn with an error). The stored session keeps every message.'))),
  'agent.compactKeepRounds': def(nullableInt(0, 1000), null as number | null, 'Newest model rounds a compaction keeps whole (null: agent.keepToolRounds).'),
  'agent.maxRounds': risky('spend', oneWay('lower', def(int(1, 10_000), 50, 'Most model rounds in one turn before the turn stops with a message.'))),
  'agent.budget': risky('spend', def(
    z.strictObject({
      turn: z.number().positive().max(1_000_000).nullable().default(null),
      session: z.number().positive().max(1_000_000).nullable().default(null),
    }),
    { turn: null, session: null } as { turn: number | null; session: number | null },
    'Money budget per turn and per session, in the units of the price table (US dollars, or the currency of your model.inputPrice and model.outputPrice), e.g. {"turn": 0.5, "session": 5}; null: no budget. Before each model request Snowpea estimates its cost (its prompt, the part the provider\'s cache should serve, the output so far); when it would pass a budget, the turn pauses and asks: continue once, raise the budget, or stop. The session budget counts everything the session has cost: its subagents and earlier windows and runs included (stored usage, at the current prices). A model with no price cannot be held to a budget (the chat says so once). User settings only.',
    'user',
  )),
  'agent.contextFileMaxChars': def(nullableInt(100), null as number | null, 'Per-file cap for project instruction files (null: derived from the model context window, clamped to 20,000..500,000; 8,000.. for windows of 32k tokens or less).'),
  'agent.contextFilesMaxChars': def(nullableInt(100), null as number | null, 'Cap for the whole # Project Context block (null: derived from the model context window, clamped to 12,000..120,000).'),
  'agent.ignoreContextFiles': def(z.boolean(), false, 'Skip project instruction files (AGENTS.md, CLAUDE.md, .snowpea/instructions.md, .cursorrules) entirely.'),
  'agents.childContext': def(z.enum(['lean', 'full']), 'lean' as 'lean' | 'full', 'Context given to delegated subagents: "lean" (brief, root instructions only, no memory or skills index) or "full" (the parent\'s whole prompt context).'),
  'skills.protectRecentViews': def(int(0, 1000), 3, 'Number of most recent skill_view results kept whole in outgoing requests; older ones become reload pointers.'),
  'model.provider': risky('sends-elsewhere', def(z.enum(['openai-compatible', 'anthropic', 'vscode-lm']), 'openai-compatible' as 'openai-compatible' | 'anthropic' | 'vscode-lm', 'Where models come from: an OpenAI-compatible endpoint (model.baseUrl), Anthropic\'s Messages API (Claude with prompt-cache breakpoints; https://api.anthropic.com unless model.baseUrl names another server), or the editor\'s language models (vscode.lm, e.g. GitHub Copilot; model.name picks one by id or family, else the first).', 'trusted')),
  'model.baseUrl': risky('sends-elsewhere', def(z.string().url(), 'https://api.openai.com/v1', 'Base URL of the OpenAI-compatible endpoint (OpenAI, OpenRouter, Ollama, LM Studio, vLLM, ...). A value from workspace settings is used only in a trusted workspace, and your API key goes to an origin a workspace chose only after you confirm it.', 'trusted')),
  'model.name': risky('spend', def(z.string().min(1), 'gpt-4.1-mini', 'Model name sent to the endpoint.')),
  'model.contextWindow': risky('safety-net', def(nullableInt(1024), null as number | null, 'Context window of the model in tokens (null: from the built-in table, or a conservative default).', 'user')),
  'model.supportsImages': def(z.boolean().nullable(), null as boolean | null, 'Whether the model accepts images (null: from the built-in table).'),
  'model.cacheDiscount': risky('prices', def(z.number().min(0).max(1).nullable(), null as number | null, 'Price of cached input tokens as a fraction of uncached ones (e.g. 0.1), for cache-aware pruning and the cost meter (null: from the built-in table by model family; 1 for unknown models, i.e. no caching).', 'user')),
  'model.cacheWritePremium': risky('prices', def(z.number().min(1).max(10).nullable(), null as number | null, 'Price of writing input tokens into the provider\'s cache as a multiple of uncached ones (e.g. 1.25 for Anthropic models; null: from the built-in table, else 1).', 'user')),
  'model.cacheHints': def(z.enum(['auto', 'on', 'off']), 'auto' as 'auto' | 'on' | 'off', 'Prompt-cache hints: prompt_cache_key (stable per session) for endpoints known to take it (OpenAI, Azure OpenAI, OpenRouter, DeepSeek; "on": every endpoint, for gateways that pass it on), and cache_control breakpoints on the system prompt and the last message for Claude models behind OpenAI-compatible gateways. An endpoint that refuses one gets the request again without it, and never again. "off" sends none.'),
  'model.inputPrice': risky('prices', def(z.number().min(0).max(1000).nullable(), null as number | null, 'US dollars per million uncached input tokens, for the context meter\'s cost estimate (null: from the built-in price table; no estimate for unknown models).', 'user')),
  'model.outputPrice': risky('prices', def(z.number().min(0).max(1000).nullable(), null as number | null, 'US dollars per million output tokens, for the cost estimate (null: from the built-in price table).', 'user')),
  'model.maxOutputTokens': risky('spend', oneWay('lower', def(nullableInt(1), null as number | null, 'Most tokens the model may answer with per round (null: the endpoint default). A workspace may only lower it.'))),
  'model.thinkingBudgetTokens': risky('spend', def(nullableInt(1024), null as number | null, 'Extended thinking for model.provider "anthropic": tokens Claude may spend thinking before it answers, sent as thinking.budget_tokens (max_tokens grows by as much). null: no extended thinking. User settings only: thinking tokens are billed.', 'user')),
  'model.reasoningEffort': risky('spend', def(z.enum(['low', 'medium', 'high']).nullable(), null as 'low' | 'medium' | 'high' | null, 'Reasoning effort for models that take one: sent as reasoning_effort to OpenAI-compatible reasoning models (o-series, gpt-5, gpt-oss, Gemini 2.5, Grok 3 mini), and as a thinking budget of 2,048, 8,192 or 16,384 tokens to Claude models that think with model.provider "anthropic" (in place of model.thinkingBudgetTokens). null: the endpoint\'s default (no extended thinking for Claude unless model.thinkingBudgetTokens is set). The chat\'s effort control picks one per session. User settings only: reasoning tokens are billed.', 'user')),
  'model.requestTimeoutS': def(int(1, 3600), 120, 'Seconds to wait for a model response (first byte and between stream chunks) before the request fails.'),
  'model.maxRetries': def(int(0, 10), 3, 'Retries on 408/409/429/5xx and network errors, with backoff that honours Retry-After.'),
  'approvals.autoApprove': risky('widens-approvals', def(z.array(z.string().min(1)), [] as string[], 'Tool names or permission tags (write, exec, network, interact) that run without asking. Protected paths (.vscode/, .git/, .snowpea/, MCP configs, .env*, instruction files, outside the workspace) always ask. User settings only: a workspace value is ignored.', 'user')),
  'approvals.commandRules': risky('widens-approvals', def(
    z.object({ allow: z.array(z.string().min(1)).default([]), deny: z.array(z.string().min(1)).default([]) }),
    { allow: [], deny: [] } as { allow: string[]; deny: string[] },
    'Shell command rules by prefix, e.g. {"allow": ["npm test", "git status"], "deny": ["rm -rf", "git push"]}. A deny rule matching any part of a command line refuses it; an allow rule runs a line without asking only when every command in it (joined by &&, ;, |) matches an allow rule and it has no $( ), backticks or subshells and writes no protected path. Matches whole words. User settings only.',
    'user',
  )),
  'browser.executablePath': risky('runs-program', def(z.string().min(1).nullable(), null as string | null, 'Chromium/Chrome/Edge to drive (null: found on PATH and the usual install locations). User settings only: a workspace value is ignored.', 'user')),
  'browser.headless': def(z.boolean(), true, 'Run the browser without a window.'),
  'browser.cdpUrl': risky('runs-program', def(z.string().url().nullable(), null as string | null, 'Connect to an already running browser over CDP instead of launching one. User settings only: a workspace value is ignored.', 'user')),
  'browser.privateNetwork': risky('sends-elsewhere', narrowing(['allow', 'typed-only', 'deny'], def(z.enum(['allow', 'typed-only', 'deny']), 'allow' as 'allow' | 'typed-only' | 'deny', 'Loopback and LAN addresses: allow, allow only addresses the user typed in the conversation, or deny. Cloud-metadata addresses are always refused. A workspace value may only make it stricter.'))),
  'images.maxFileBytes': def(int(1), 20 * 1024 * 1024, 'Largest image accepted into the attachment store, in bytes.'),
  'images.maxDimension': def(int(64, 16_384), 2048, 'Longest side, in pixels, of an image sent to the model; larger images are downscaled.'),
  'images.maxBytes': def(int(1024), 5 * 1024 * 1024, 'Largest image sent to the model, in bytes; larger images are re-encoded smaller.'),
  'mcp.servers': risky('runs-program', def(z.record(z.string(), z.record(z.string(), z.unknown())), {} as Record<string, Record<string, unknown>>, 'MCP servers: name -> {command, args, env} or {url, headers}. Servers from workspace settings ask before their first start and are not used in Restricted Mode.', 'trusted')),
  'mcp.startTimeoutS': risky('safety-net', oneWay('lower', def(int(1, 600), 30, 'Seconds an MCP server may take to start and list its tools; a new session\'s first request waits for servers never seen before at most this long.'))),
  'mcp.callTimeoutS': def(int(1, 3600), 60, 'Seconds an MCP tool call may take before it fails with a timeout.'),
  'media.imageModel': risky('spend', def(z.string().min(1), 'gpt-image-1', 'Model used by media_image_generate and media_image_edit.')),
  'media.speechModel': risky('spend', def(z.string().min(1), 'gpt-4o-mini-tts', 'Model used by media_speech (the endpoint\'s speech API).')),
  'media.transcribeModel': risky('spend', def(z.string().min(1), 'whisper-1', 'Model used by media_transcribe (the endpoint\'s transcription API).')),
  'checkpoints.enabled': risky('safety-net', def(z.boolean(), true, 'Keep a checkpoint of the workspace\'s files before each message (a shadow git repository in Snowpea\'s storage, outside the workspace), so the files can be restored to how they were before it. It holds every file but dependency and build folders (node_modules, dist, build, target, .venv, ...) and files over checkpoints.maxFileMB, whatever the repository\'s .gitignore says. User settings only: a repository cannot turn off your way back.', 'user')),
  'checkpoints.maxWorkspaceMB': risky('safety-net', def(int(1, 100_000), 200, 'Largest workspace, in MB of the files a checkpoint holds, that gets checkpoints of every file; over it, files the .gitignore excludes are left out (a message says so once), and a workspace still over it gets none. User settings only.', 'user')),
  'checkpoints.maxFileMB': risky('safety-net', def(int(1, 10_000), 20, 'Files larger than this many MB are not held by checkpoints (a notice names them the first time, the log each time), and a restore leaves them alone. User settings only.', 'user')),
  'checkpoints.maxStoreMB': risky('safety-net', def(int(1, 1_000_000), 1000, 'Most MB one workspace\'s checkpoints may take; over it the oldest are removed (the log says which), the newest always kept. User settings only.', 'user')),
  'checkpoints.maxAgeDays': risky('safety-net', def(int(1, 3650), 7, 'Checkpoints older than this many days are removed (like saved tool outputs). User settings only.', 'user')),
  'chat.messagesDuringTurn': def(
    z.enum(['steer', 'queue']),
    'steer' as 'steer' | 'queue',
    'A message sent while a turn runs: "steer" gives it to the model at the turn\'s next step (after the running tools finish, appended so the prompt cache still hits); "queue" sends it as a new message when the turn ends. Each waiting message can be switched, edited or removed above the message box.',
  ),
  'chat.notifyWhenUnfocused': def(z.boolean(), true, 'Show a VS Code notification when a turn ends or waits for your approval or answer while the window is not focused.'),
  'log.level': def(z.enum(['error', 'warn', 'info', 'debug']), 'info' as 'error' | 'warn' | 'info' | 'debug', 'Log detail. Prompts and tool outputs are logged only at debug.'),
} as const;

export type SettingKey = keyof typeof settingDefs;
export type Settings = { -readonly [K in SettingKey]: z.infer<(typeof settingDefs)[K]['schema']> };

export const settingKeys = Object.keys(settingDefs) as SettingKey[];

export function defaultSettings(): Settings {
  const out: Record<string, unknown> = {};
  for (const k of settingKeys) out[k] = structuredClone(settingDefs[k].default);
  return out as Settings;
}
