import { TOOL, type ToolName } from './names';
import type { Mode } from './types';

/** Modes in which nothing may change the workspace (the policy refuses tools whose traits are not read-only). */
export const READ_ONLY_MODES: ReadonlySet<Mode> = new Set<Mode>(['plan', 'ask']);

/**
 * Tools a mode sends eagerly even though they are deferred otherwise (the tools a mode requires, docs/design.md,
 * Deferred tools): plan mode writes its plan as a todo list, so todo_write is at hand there without a
 * tool_search; in code mode it stays deferred (the first request's budget), and a session that
 * loaded it (an approved plan did) keeps it.
 */
export const MODE_TOOLS: Readonly<Record<Mode, readonly ToolName[]>> = {
  code: [],
  plan: [TOOL.todo_write],
  ask: [],
};

/** The mode-required tools of a mode as stored (an unknown mode requires none). */
export function modeTools(mode: Mode): readonly ToolName[] {
  return MODE_TOOLS[mode] ?? [];
}
