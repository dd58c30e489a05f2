import { parseArgs } from 'node:util';
import { applyApiKeyFlags } from './api-key';
import { runCommand } from './run';
import { sessionsCommand } from './sessions';
import { mcpCommand } from './mcp';
import { toolsCommand } from './tools';
import { exitCli, guardProcess } from './process-exit';
import { block } from './terminal-text';

declare const SNOWPEA_VERSION: string | undefined;

const HELP = `snowpea: the Snowpea coding agent on the command line

Usage:
  snowpea run "prompt" [--session ID] [--plan|--act] [--agent NAME] [--compact] [--attach PATH]... [--json] [--yes] [--max-rounds N] [--budget AMOUNT]
  snowpea sessions list [--all] [--json]
  snowpea sessions show ID
  snowpea sessions export ID [--format json|md]
  snowpea sessions delete ID
  snowpea sessions checkpoints ID [--json]
  snowpea sessions restore ID --to N|uN [--yes]
  snowpea sessions compact ID [--focus TEXT] [--json]
  snowpea tools list [--json]
  snowpea tools call NAME --args JSON|@FILE|- [--json] [--yes]
  snowpea mcp list [--json]

Model flags (or OPENAI_BASE_URL / OPENAI_API_KEY):
  --base-url URL      OpenAI-compatible endpoint (default https://api.openai.com/v1)
  --model NAME        model name
  --api-key-file FILE read the API key from the first line of FILE (keep it chmod 600)
  --api-key -         read the API key from the first line of stdin
  --api-key KEY       API key on the command line: visible to other local processes (ps);
                      without a key flag: OPENAI_API_KEY, else ~/.snowpea/credentials.json
                      (tools Snowpea runs never inherit provider keys such as OPENAI_API_KEY)
Other flags:
  --attach PATH       attach an image or file to the prompt (repeatable; @path in the prompt works too);
                      a path that is missing, unreadable or refused is an error, and nothing is sent
  --settings FILE     extra settings file (after ~/.snowpea/settings.json and .snowpea/settings.json)
  --max-rounds N      most model rounds in this turn (an integer from 1 to 10000)
  --budget AMOUNT     run: money budget of this turn (or turn=AMOUNT,session=AMOUNT; agent.budget), in the
                      price table's units (US dollars unless model.inputPrice says otherwise). When the
                      next request would pass it the run asks (continue once, raise, stop); without a
                      terminal, or with --yes, it stops there (exit code 4), never spending past it
  --plan              run: plan mode (read tools only; the answer is a plan, nothing changes); the
                      session stays in plan mode until a run with --act carries the plan out
  --act               run: act (code) mode again, every tool
  --agent NAME        run: the session runs as that custom agent (its instructions; its tool list only
                      narrows) from this turn on, also in later runs; --agent snowpea: Snowpea's own again
  --compact           with --session: compact the conversation before the turn (summary of older rounds)
  --focus TEXT        what a compaction's summary should keep in particular
  --args JSON         tool arguments for tools call; @FILE reads them from FILE, - from stdin
  --to N              sessions restore: put the files back as they were before turn N
                      (lists them and asks; --yes restores without asking); every restore
                      first keeps the files as they were in a restore point uN, and
                      --to uN undoes that restore (sessions checkpoints lists them)
  --all               sessions list: the sessions of every folder (default: the current folder's)
  --state-db FILE     sessions database (default ~/.snowpea/state.db; checkpoints are kept beside it)
  --verbose           log to stderr, and show the model's reasoning there (run)
  -h, --help          this help
  -v, --version       print the version

A session ID may be shortened to any start of it that names one session (at least 4 characters).

Exit codes: 0 done, 1 error, 2 no command given, 3 answer cut (output limit) or filtered (content filter),
4 stopped at the budget (--budget, agent.budget), 130 interrupted (Ctrl-C), 143 SIGTERM, 129 SIGHUP, 141 stdout's reader went away during run (| head).
A stopped run ends its turn, keeps the rounds that completed and names the session on stderr.
A run whose first request fails keeps no session (sessions list shows only sessions with a completed round).
Before each message the workspace's files are checkpointed (a shadow git repository beside state.db;
every file but node_modules, build output and files over checkpoints.maxFileMB; checkpoints.enabled,
maxWorkspaceMB, maxStoreMB, maxAgeDays); run ends with the files it changed.
A stop signal ends every tool process the turn started before the CLI exits.`;

const options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  verbose: { type: 'boolean' },
  session: { type: 'string' },
  settings: { type: 'string' },
  'state-db': { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  'api-key-file': { type: 'string' },
  'max-rounds': { type: 'string' },
  budget: { type: 'string' },
  format: { type: 'string' },
  to: { type: 'string' },
  compact: { type: 'boolean' },
  plan: { type: 'boolean' },
  act: { type: 'boolean' },
  agent: { type: 'string' },
  focus: { type: 'string' },
  args: { type: 'string' },
  attach: { type: 'string', multiple: true },
  all: { type: 'boolean' },
} as const;

type Flags = Record<string, string | boolean | string[] | undefined>;

/** One handler per top-level command: a table, not a switch. */
const commands: Record<string, (pos: string[], flags: Flags) => Promise<number>> = {
  run: (pos, flags) => {
    if (!pos[0]) throw new UsageError('snowpea run needs a prompt: snowpea run "what to do"');
    return runCommand(pos.join(' '), flags);
  },
  sessions: (pos, flags) => sessionsCommand(pos[0], pos[1], flags),
  tools: (pos, flags) => toolsCommand(pos[0], pos[1], flags),
  mcp: (pos, flags) => mcpCommand(pos[0], flags),
};

class UsageError extends Error {}

/** The line after an argument error: where the whole usage is. */
const HINT = 'see: snowpea --help';

/**
 * Node's parseArgs errors in our words: "unknown option --frob for run", "--session needs a
 * value". `argv` names the command (its first word that is not an option).
 */
export function argsErrorLine(e: Error & { code?: string }, argv: string[]): string {
  const cmd = argv.find((a) => !a.startsWith('-'));
  const forCmd = cmd && cmd in commands ? ` for ${cmd}` : '';
  const name = /'(-[^' ]*)/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && name) return `unknown option ${name}${forCmd}`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && name) {
    if (/argument missing/.test(e.message)) return `${name} needs a value${forCmd}`;
    if (/does not take an argument/.test(e.message)) return `${name} takes no value${forCmd}`;
  }
  return e.message;
}

function version(): string {
  return typeof SNOWPEA_VERSION === 'string' ? SNOWPEA_VERSION : (process.env.npm_package_version ?? 'dev');
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    // One line in our words and where to look, not the whole help (it would push the error off a small screen).
    process.stderr.write(`snowpea: ${block(argsErrorLine(e as Error & { code?: string }, argv))}\n${HINT}\n`);
    return 1;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`snowpea ${version()}\n`);
    return 0;
  }
  const [cmd, ...rest] = positionals;
  if (values.help) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  if (!cmd) {
    // No command is a usage error: the usage goes to stderr, with exit code 2.
    process.stderr.write(`snowpea: give a command\n\n${HELP}\n`);
    return 2;
  }
  const handler = commands[cmd];
  if (!handler) {
    process.stderr.write(`snowpea: unknown command ${block(cmd)} (the commands: ${Object.keys(commands).join(', ')})\n${HINT}\n`);
    return 1;
  }
  try {
    applyApiKeyFlags(values, (m) => void process.stderr.write(`snowpea warn: ${block(m)}\n`));
    return await handler(rest, values as Flags);
  } catch (e) {
    process.stderr.write(`snowpea: ${block((e as Error).message)}\n`);
    return 1;
  }
}

if (require.main === module) {
  guardProcess();
  main(process.argv.slice(2)).then(
    (code) => exitCli(code),
    (e) => {
      process.stderr.write(`snowpea: ${block(String((e as Error).stack ?? e))}\n`);
      return exitCli(1);
    },
  );
}
