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

export function modeLine(mode: string): string | undefined {
  if (mode === 'plan') return 'Mode: plan. Read and think, keep the plan\'s steps with todo_write, and answer with the plan. Write, exec and commit tools are not available until the user approves the plan (that switches to code mode).';
  if (mode === 'ask') return 'Mode: ask. Answer questions about the code; do not change files. Write, exec and commit tools are not available.';
  return undefined;
}

export function environmentLine(workspaceRoot: string, platform: string): string {
  return `Workspace: ${workspaceRoot}\nPlatform: ${platform}`;
}

/** The child's round budget line (docs/design.md, Subagents), kept in lean child context. */
export function budgetLine(rounds: number | undefined): string | undefined {
  return rounds ? `You have ${rounds} tool rounds for this task.` : undefined;
}
