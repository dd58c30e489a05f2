/** The arguments for reading: indented JSON when they parse, as sent otherwise. */
export function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}
