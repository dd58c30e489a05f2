/**
 * What the composer does itself instead of sending a message: `/compact [focus]`; `/plan [message]`
 * (plan mode on, then the message, if any, is sent in it); `/act [message]` (plan mode off).
 */
export type SlashCommand = { command: 'compact'; focus?: string } | { command: 'plan' | 'act'; message?: string };

const COMMAND = /^\/(compact|plan|act)(?:\s+([\s\S]*))?$/;

/** The slash command the draft is, if it is one; anything else (`/compactly`, `/planning`, `/other`) is sent as typed. */
export function parseSlashCommand(draft: string): SlashCommand | undefined {
  const m = COMMAND.exec(draft.trim());
  if (!m) return undefined;
  const rest = m[2]?.trim();
  if (m[1] === 'compact') return rest ? { command: 'compact', focus: rest } : { command: 'compact' };
  const command = m[1] as 'plan' | 'act';
  return rest ? { command, message: rest } : { command };
}
