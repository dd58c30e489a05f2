import { TOOL } from './names';
import type { AnyTool } from './types';

// The eager core set (docs/design.md, Deferred tools) is no list here: each tool's definition says `deferred: false`.

/** Read-only child sessions (explore, reviewer) start with this narrowed eager set. */
export const READ_ONLY_EAGER = [TOOL.read_file, TOOL.grep, TOOL.glob, TOOL.shell, TOOL.tool_search] as const;

export interface ActiveSetInput {
  tools: AnyTool[];
  deferredEnabled: boolean;
  /** tools.eager plus whatever the session mode or role requires. */
  extraEager: string[];
  /** The session's loaded deferred tools, in load order. */
  loaded: string[];
  /** When set (read-only roles), the eager core is narrowed to these names. */
  narrowEager?: readonly string[];
  /** Whether the session may have a tool at all (the policy's offer rule: mode, subagent role). */
  allows(tool: AnyTool): boolean;
}

/**
 * The tools sent this round, in a stable order: the eager tools in registration order,
 * then the loaded deferred tools in the order they were loaded.
 */
export function activeTools(input: ActiveSetInput): AnyTool[] {
  const usable = input.tools.filter((t) => input.allows(t));
  if (!input.deferredEnabled) return usable;
  const byName = new Map<string, AnyTool>(usable.map((t) => [t.name, t]));
  const eagerNames = new Set<string>(input.narrowEager ?? usable.filter((t) => !t.deferred).map((t) => t.name));
  for (const n of input.extraEager) eagerNames.add(n);
  const eager = usable.filter((t) => eagerNames.has(t.name));
  const seen = new Set(eager.map((t) => t.name));
  const loaded = input.loaded.map((n) => byName.get(n)).filter((t): t is AnyTool => !!t && !seen.has(t.name));
  return [...eager, ...loaded];
}

/**
 * `Deferred (load with tool_search): browser (8), git (4), mcp:github (12)`. Counts every tool
 * of each group that is deferred by default, loaded or not, so loading a tool does not
 * change the system prompt (and its prompt-cache prefix).
 */
export function deferredLine(tools: AnyTool[], eagerAlways: Set<string>): string | undefined {
  const counts = new Map<string, number>();
  for (const t of tools) {
    if (!t.deferred || eagerAlways.has(t.name)) continue;
    counts.set(t.group, (counts.get(t.group) ?? 0) + 1);
  }
  if (!counts.size) return undefined;
  const groups = [...counts.entries()].sort(([a], [b]) => groupRank(a) - groupRank(b) || a.localeCompare(b));
  return `Deferred (load with tool_search): ${groups.map(([g, n]) => `${g} (${n})`).join(', ')}`;
}

/** Built-in groups first in a fixed order, MCP servers after them. */
export function groupRank(group: string): number {
  const order = ['browser', 'git', 'media', 'memory', 'fs', 'todo'];
  const i = order.indexOf(group);
  return i >= 0 ? i : group.startsWith('mcp:') ? 100 : 50;
}
