/** What the composer does itself instead of sending a message: `/compact [focus]`. */
export type SlashCommand = { command: 'compact'; focus?: string };

const COMPACT = /^\/compact(?:\s+([\s\S]*))?$/;

/** The slash command the draft is, if it is one; anything else (`/compactly`, `/other`) is sent as typed. */
export function parseSlashCommand(draft: string): SlashCommand | undefined {
  const m = COMPACT.exec(draft.trim());
  if (!m) return undefined;
  const focus = m[1]?.trim();
  return focus ? { command: 'compact', focus } : { command: 'compact' };
}
