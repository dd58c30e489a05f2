import type { AgentChoice, SlashCommandInfo } from '../../../extension/protocol';

/** A row of the slash menu: the composer's own commands and those of the prompt files. */
export interface SlashMenuItem {
  name: string;
  description?: string;
  argumentHint?: string;
  /** Where it is from: `Snowpea` for the composer's own, else the file. */
  origin: string;
}

/** The composer's own commands (slash-commands.ts handles them), listed first. */
export const BUILTIN_SLASH: readonly SlashMenuItem[] = [
  { name: 'compact', argumentHint: '[focus]', description: 'Summarize the conversation so far (keeping what you name)', origin: 'Snowpea' },
  { name: 'plan', argumentHint: '[message]', description: 'Plan mode: read-only, the answer is a plan to approve', origin: 'Snowpea' },
  { name: 'act', argumentHint: '[message]', description: 'Act mode: every tool, as approvals allow', origin: 'Snowpea' },
  { name: 'agent', argumentHint: '[name] [message]', description: "Run the chat as a custom agent; without a name, as Snowpea", origin: 'Snowpea' },
];

/** One row per custom agent: `/agent NAME` with the agent's description. */
export function agentRows(agents: readonly AgentChoice[]): SlashMenuItem[] {
  return agents.map((a) => ({ name: `agent ${a.name}`, ...(a.description ? { description: a.description } : {}), origin: 'custom agent' }));
}

/** The `/word` being typed at the start of the draft, when the caret is inside it; else null. */
export function slashQueryAt(draft: string, caret: number): string | null {
  const m = /^\/([^\s/]*)$/.exec(draft.slice(0, caret));
  return m ? m[1] : null;
}

/** The menu for a query: names that start with it first, then names that contain it; at most `limit`. */
export function slashMatches(query: string, commands: readonly SlashCommandInfo[], limit = 12, agents: readonly AgentChoice[] = []): SlashMenuItem[] {
  const all: SlashMenuItem[] = [...BUILTIN_SLASH, ...agentRows(agents), ...commands];
  const q = query.toLowerCase();
  const starts = all.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = all.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}

/** The draft with its leading `/word` replaced by `/name ` (the rest kept); the caret goes after the space. */
export function insertSlash(draft: string, caret: number, name: string): { text: string; caret: number } {
  const rest = draft.slice(caret).replace(/^\S*/, '').replace(/^ /, '');
  const insert = `/${name} `;
  return { text: insert + rest, caret: insert.length };
}
