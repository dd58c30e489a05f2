import { sanitizeNamePart } from '../mcp/names';
import { TOOL } from '../tools/names';

/**
 * What another agent's tool names mean in Snowpea, for a custom agent's `tools:` list. An entry is
 * a tool name, or a prefix ending in `*` (`browser_*`, `mcp__github__*`). The list only ever
 * narrows: what it names is still subject to the session's mode, the subagent rules and approvals.
 */
const READ = [TOOL.read_file, TOOL.view_image, TOOL.list_dir];
const SEARCH = [TOOL.grep, TOOL.glob, TOOL.list_dir];
const WRITE = [TOOL.write_file, TOOL.edit_file];
const RUN = [TOOL.shell, TOOL.execute_code];
const BROWSER = ['browser_*'];

/** Claude Code's tool names (case-insensitive). */
const CLAUDE: Record<string, readonly string[]> = {
  read: READ,
  write: [TOOL.write_file],
  edit: [TOOL.edit_file],
  multiedit: [TOOL.edit_file],
  notebookedit: [TOOL.edit_file],
  bash: RUN,
  grep: [TOOL.grep],
  glob: [TOOL.glob],
  ls: [TOOL.list_dir],
  webfetch: BROWSER,
  websearch: BROWSER,
  todowrite: [TOOL.todo_write],
  task: [TOOL.delegate_task],
  agent: [TOOL.delegate_task],
  skill: [TOOL.skill_view],
};

/** VS Code's (Copilot's) tool set names and the older tool names agent files still carry. */
const COPILOT: Record<string, readonly string[]> = {
  read: [...READ, TOOL.skill_view],
  search: SEARCH,
  codebase: [...SEARCH, TOOL.read_file],
  usages: SEARCH,
  edit: WRITE,
  editfiles: WRITE,
  execute: RUN,
  runcommands: RUN,
  runinterminal: RUN,
  terminal: RUN,
  web: BROWSER,
  fetch: BROWSER,
  todo: [TOOL.todo_write],
  todos: [TOOL.todo_write],
  agent: [TOOL.delegate_task],
  runsubagent: [TOOL.delegate_task],
  changes: [TOOL.git_status, TOOL.git_diff],
};

/** Roo Code's tool groups. */
const ROO: Record<string, readonly string[]> = {
  read: [...READ, TOOL.grep, TOOL.glob, TOOL.skill_view],
  edit: WRITE,
  browser: BROWSER,
  command: RUN,
  mcp: ['mcp__*'],
  modes: [],
};

export type ToolDialect = 'claude' | 'copilot' | 'roo' | 'snowpea';

const TABLES: Record<ToolDialect, Record<string, readonly string[]>> = { claude: CLAUDE, copilot: COPILOT, roo: ROO, snowpea: { ...COPILOT, ...CLAUDE } };
const BUILTIN: ReadonlySet<string> = new Set(Object.values(TOOL));

/** One name as written in a file: a Snowpea tool, an MCP tool or server, or a name of the dialect's table. */
function mapOne(raw: string, dialect: ToolDialect): readonly string[] | undefined {
  const name = raw.trim();
  if (BUILTIN.has(name)) return [name];
  // Claude Code's and Snowpea's MCP names: mcp__server__tool, or mcp__server for all of a server's tools.
  const mcp = /^mcp__([^_].*?)(?:__(.+))?$/.exec(name);
  if (mcp) return [mcp[2] ? `mcp__${sanitizeNamePart(mcp[1])}__${sanitizeNamePart(mcp[2])}` : `mcp__${sanitizeNamePart(mcp[1])}__*`];
  // VS Code's MCP names: server/* or server/tool.
  const slash = /^([^/\s]+)\/(\*|[^/\s]+)$/.exec(name);
  if (slash && dialect !== 'roo') return [slash[2] === '*' ? `mcp__${sanitizeNamePart(slash[1])}__*` : `mcp__${sanitizeNamePart(slash[1])}__${sanitizeNamePart(slash[2])}`];
  // Claude Code writes Bash(git diff:*) for a command pattern: Snowpea narrows to the tool; the command still asks.
  const bare = name.replace(/\(.*\)$/, '').toLowerCase();
  return TABLES[dialect][bare];
}

export interface MappedTools {
  /** Tool names and `prefix*` patterns the agent may have (tool_search always, to load deferred ones among them). */
  allowed: string[];
  /** Names in the file Snowpea has no tool for: left out, and said in the listing. */
  unknown: string[];
}

/** Maps a `tools:` list; `deny` (Claude Code's `disallowedTools`) is taken away afterwards. */
export function mapTools(names: readonly string[], dialect: ToolDialect, deny: readonly string[] = []): MappedTools {
  const allowed = new Set<string>([TOOL.tool_search]);
  const unknown: string[] = [];
  for (const n of names) {
    const m = mapOne(n, dialect);
    if (m) m.forEach((t) => allowed.add(t));
    else unknown.push(n);
  }
  for (const n of deny) for (const t of mapOne(n, dialect) ?? []) allowed.delete(t);
  return { allowed: [...allowed], unknown };
}

/** Every tool except those `deny` names (Claude Code's `disallowedTools` without a `tools:` list); undefined when nothing is denied. */
export function denyOnly(deny: readonly string[], dialect: ToolDialect): { denied: string[]; unknown: string[] } | undefined {
  if (!deny.length) return undefined;
  const denied: string[] = [];
  const unknown: string[] = [];
  for (const n of deny) {
    const m = mapOne(n, dialect);
    if (m) denied.push(...m);
    else unknown.push(n);
  }
  return { denied, unknown };
}
