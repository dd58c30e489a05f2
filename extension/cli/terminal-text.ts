/**
 * The one place untrusted text is made safe for a terminal (red-team N1, N2). Commands, paths,
 * file names, URLs, MCP and model text reach the CLI's questions, lists and notes only through
 * these functions: a terminal acts on control characters (ESC sequences erase the screen, move the
 * cursor, conceal text; CR and backspace overwrite), and bidi and zero-width characters reorder
 * or hide what is read. So each of them is written out as an escape, never sent raw:
 * - below U+0080 (C0 controls, DEL) as `\x1b`, with `\t`, `\n`, `\r` for those three;
 * - everything else (C1 controls, bidi, zero-width and other format characters) as `\u{202e}`.
 * `\x1b` is how bash's `$'…'`, printf, JavaScript and Python write that byte; `\u{202e}` is how
 * JavaScript (and Rust) write a code point, braces so an astral tag character (`\u{e0041}`) reads
 * the same way. So what the user reads names the exact bytes that will run; a caret form (`^[`)
 * covers only C0 and reads like a regex (`[^[]`), and VS Code's `<U+202E>` chips need colour to
 * stand out from text, which a terminal may not have.
 * A literal backslash is left as it is (doubling it would garble every regex and Windows path),
 * which is why the approval also says in words when a call holds such characters.
 * The list of characters is extension/protocol/hidden-chars.ts, shared with the webview's card.
 */
import { escapeHidden, hasHidden } from '../core/text/hidden-chars';

const escaped = escapeHidden;

const keepLines = (c: string) => c === '\n' || c === '\t';
/** In a model's streamed answer: line breaks and tabs, and the joiners and variation selectors emoji and some scripts are made of. */
const keepInAnswer = (c: string) => keepLines(c) || /^(?:\u200c|\u200d|\p{Variation_Selector})$/u.test(c);

/** One line: every hidden character escaped, line breaks too (a path, a URL, a command in a question). */
export function oneLine(s: string): string {
  return escaped(s);
}

/** Several lines (a diff, pretty-printed arguments, a list): line breaks and tabs kept (CR LF read as LF), everything else escaped. */
export function block(s: string): string {
  return escaped(s.replace(/\r\n/g, '\n'), keepLines);
}

/** Each line of `s` (already made safe) behind `prefix`, so a block cannot pass for the question under it. */
export function indent(s: string, prefix: string): string {
  return s
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

/**
 * A chunk of a model's streamed answer: line breaks, tabs, emoji joiners and variation selectors
 * kept; carriage returns dropped (a CR LF split across chunks would otherwise show as `\r`); every
 * other control and bidi character escaped.
 */
export function answerText(s: string): string {
  return escaped(s.replace(/\r/g, ''), keepInAnswer);
}

/** Whether oneLine would escape something other than line breaks and tabs: the approval then says so. */
export function holdsHidden(s: string): boolean {
  return hasHidden(s, keepLines);
}

/** Resets colours and attributes (SGR 0), so nothing written before a question (e.g. concealed text) carries into it. */
export const RESET = '\x1b[0m';
