/** A short one-line preview of a tool call's arguments while it runs (before it has a summary). */
export function argsPreview(args: string, max = 120): string {
  let text = args.trim();
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      text = Object.values(parsed as Record<string, unknown>)
        .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
        .join(' ');
    }
  } catch {
    // Malformed arguments (the model's fault): show them as they are.
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The arguments for reading: indented JSON when they parse, as sent otherwise. */
export function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}
