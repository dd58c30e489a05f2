import { workspaceRootsOf } from '../tools/roots';
import type { Mode } from '../conversation/events';

/**
 * The system prompt is composed from named parts in a fixed order. It must be byte-stable
 * across rounds (no clock, no counters), so the provider's prompt cache keeps hitting.
 */
export interface PromptPart {
  name: string;
  text: string | undefined;
}

export function composePrompt(parts: PromptPart[]): string {
  return parts
    .map((p) => p.text?.trim())
    .filter((t): t is string => !!t)
    .join('\n\n');
}

export const PERSONA = `You are Snowpea, a coding agent working inside the user's editor on the workspace below.
Work in small verified steps: read what you need, change what the task asks for, run the project's own checks, and say plainly what you did and what you did not verify.
Use tools instead of guessing file contents. Prefer edit_file for small changes to existing files. Keep answers short; the user sees your tool calls.
Tool results that were pruned or stubbed say so; re-run the tool if you need the content again.`;

export function modeLine(mode: Mode): string | undefined {
  if (mode === 'plan') return 'Mode: plan. Read and think, keep the plan\'s steps with todo_write, and answer with the plan. Write, exec and commit tools are not available until the user approves the plan (that switches to code mode).';
  if (mode === 'ask') return 'Mode: ask. Answer questions about the code; do not change files. Write, exec and commit tools are not available.';
  return undefined;
}

/**
 * Where the agent works. A single-folder workspace keeps its one line (the same bytes as ever, so
 * cached prompt prefixes hold); a multi-root one lists its folders and how paths name them.
 */
export function environmentLine(workspaceRoot: string, platform: string): string {
  const roots = workspaceRootsOf(workspaceRoot);
  if (roots.length === 1) return `Workspace: ${workspaceRoot}\nPlatform: ${platform}`;
  const folders = roots.map((r) => `- ${r.name ?? '(by absolute path)'}: ${r.path}`);
  return [
    `Workspace: ${roots.length} folders. Write paths as folderName/path, as tool output names them (a path without a folder name is in the first folder); grep, glob and shell work in one folder at a time (pass path).`,
    ...folders,
    `Platform: ${platform}`,
  ].join('\n');
}

/** The child's round budget line (docs/design.md, Subagents), kept in lean child context. */
export function budgetLine(rounds: number | undefined): string | undefined {
  return rounds ? `You have ${rounds} tool rounds for this task.` : undefined;
}
