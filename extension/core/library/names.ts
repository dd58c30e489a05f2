/** A command's name: what follows `/` (letters, digits, `_`, `-`, `.`, `:`), at most 64 characters. */
const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
/** An agent's name as delegate_task takes it: letters, digits, spaces, `_`, `-`, `.`, `:`, at most 64 characters. */
const AGENT_NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.:-]{0,63}$/u;

/** Composer commands Snowpea has itself; a file cannot take their names. */
export const BUILTIN_COMMANDS: readonly string[] = ['compact', 'plan', 'act', 'attach'];

export function validCommandName(name: string | undefined): name is string {
  return !!name && COMMAND_NAME.test(name);
}

export function validAgentName(name: string | undefined): name is string {
  return !!name && AGENT_NAME.test(name);
}

/** A file's name without its folder and suffix (`frontend/review.prompt.md` -> `review`). */
export function baseName(rel: string, suffix: RegExp): string {
  const file = rel.split('/').pop() ?? rel;
  return file.replace(suffix, '');
}

/** A description as listings and the system prompt carry it: at most 300 characters. */
export function clipDescription(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
