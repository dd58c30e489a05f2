/**
 * What the composer does itself instead of sending a message: `/compact [focus]`; `/plan [message]`
 * (plan mode on, then the message, if any, is sent in it); `/act [message]` (plan mode off);
 * `/agent [NAME [message]]` (the chat runs as that custom agent, or without a name as Snowpea).
 */
export type SlashCommand = { command: 'compact'; focus?: string } | { command: 'plan' | 'act'; message?: string } | { command: 'agent'; name?: string; message?: string };

const COMMAND = /^\/(compact|plan|act|agent)(?:\s+([\s\S]*))?$/;

/**
 * The slash command the draft is, if it is one; anything else (`/compactly`, `/planning`, `/other`) is
 * sent as typed. `agents`: the names `/agent` knows, so a name with spaces (a Copilot agent's) is read whole.
 */
export function parseSlashCommand(draft: string, agents: readonly string[] = []): SlashCommand | undefined {
  const m = COMMAND.exec(draft.trim());
  if (!m) return undefined;
  const rest = m[2]?.trim();
  if (m[1] === 'compact') return rest ? { command: 'compact', focus: rest } : { command: 'compact' };
  if (m[1] === 'agent') return agentCommand(rest ?? '', agents);
  const command = m[1] as 'plan' | 'act';
  return rest ? { command, message: rest } : { command };
}

/** `/agent` with what follows it: the longest known name it starts with (any case), else its first word; the rest is the message. */
function agentCommand(rest: string, agents: readonly string[]): SlashCommand {
  if (!rest) return { command: 'agent' };
  const lower = rest.toLowerCase();
  const known = [...agents].sort((a, b) => b.length - a.length).find((n) => lower.startsWith(n.toLowerCase()) && (rest.length === n.length || /\s/.test(rest[n.length])));
  const name = known ?? rest.split(/\s/, 1)[0];
  const message = rest.slice(name.length).trim();
  return { command: 'agent', name, ...(message ? { message } : {}) };
}
