/**
 * The `@path` being typed at the caret, and what inserting a chosen path does to the draft.
 * `@` counts at the start or after a space or bracket (as the host's @path expansion reads it),
 * so e-mail addresses do not open the popup.
 */

export interface Mention {
  /** Index of the `@`. */
  start: number;
  /** What follows the `@` up to the caret. */
  query: string;
}

const MENTION_BEFORE_CARET = /(^|[\s([{])@([^\s"'`@]*)$/;

export function mentionAt(text: string, caret: number): Mention | null {
  const m = MENTION_BEFORE_CARET.exec(text.slice(0, caret));
  if (!m) return null;
  const query = m[2] ?? '';
  return { start: caret - query.length - 1, query };
}

/** `@src/a.ts `, or `@"my file.png" ` for a path with spaces. */
export function mentionText(path: string): string {
  return /\s/.test(path) ? `@"${path}" ` : `@${path} `;
}

/** Replaces the mention (from its `@` to the caret) with the chosen path; returns the new text and caret. */
export function insertMention(text: string, caret: number, mention: Mention, path: string): { text: string; caret: number } {
  const insert = mentionText(path);
  // The rest of the word at the caret belongs to the mention too; the inserted space replaces one after it.
  const rest = text.slice(caret).replace(/^\S*/, '').replace(/^ /, '');
  const before = text.slice(0, mention.start);
  return { text: before + insert + rest, caret: before.length + insert.length };
}
