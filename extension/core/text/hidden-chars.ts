/**
 * Characters a reader cannot see, or that change how the text around them is shown: control
 * characters (C0, DEL, C1: a terminal acts on them), format characters (Unicode Cf: bidi
 * embeddings, overrides and isolates, zero-width spaces and joiners, marks, the BOM, tag
 * characters), line and paragraph separators, and blank fillers and variation selectors that
 * draw nothing. The webview's approval card and the CLI's terminal text (extension/cli/terminal-text.ts)
 * both take their list from here, so a character one of them shows the other shows too.
 * Pure: no node modules, no DOM (the webview bundle imports it through extension/protocol/hidden-chars.ts).
 */

/** One hidden character (the `u` flag: astral tag characters and selectors included). */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Variation_Selector}\u115f\u1160\u3164\uffa0]|\u034f/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

/** Bidi controls: embeddings, overrides, isolates and the marks (U+061C, U+200E, U+200F). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export type HiddenKind = 'control' | 'bidi' | 'invisible';

/** Whether `s` holds a hidden character (line breaks and tabs count: callers that keep them say so with `keep`). */
export function hasHidden(s: string, keep?: (c: string) => boolean): boolean {
  if (!keep) return HIDDEN.test(s);
  for (const m of s.matchAll(HIDDEN_ALL)) if (!keep(m[0])) return true;
  return false;
}

export function hiddenKind(c: string): HiddenKind {
  if (/\p{Cc}/u.test(c)) return 'control';
  return BIDI.test(c) ? 'bidi' : 'invisible';
}

/** `U+202E`, as VS Code's editor names a character it highlights. */
export function codePointLabel(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

const NAMES: Record<number, string> = {
  0x1b: 'ESCAPE',
  0x0d: 'CARRIAGE RETURN',
  0x08: 'BACKSPACE',
  0x7f: 'DELETE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0x061c: 'ARABIC LETTER MARK',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

/** A tooltip for a hidden character: `U+202E RIGHT-TO-LEFT OVERRIDE (changes the direction of the text around it)`. */
export function hiddenDescription(c: string): string {
  const name = NAMES[c.codePointAt(0)!];
  const kind = hiddenKind(c);
  const what = kind === 'bidi' ? 'changes the direction of the text around it' : kind === 'control' ? 'a control character' : 'an invisible character';
  return `${codePointLabel(c)}${name ? ` ${name}` : ''} (${what})`;
}

/** A run of ordinary text, or one hidden character. */
export type TextPiece = { text: string } | { hidden: string };

/** `s` cut into ordinary runs and single hidden characters; characters `keep` accepts (e.g. a line break) stay in the runs. */
export function splitHidden(s: string, keep?: (c: string) => boolean): TextPiece[] {
  const out: TextPiece[] = [];
  let run = '';
  let last = 0;
  for (const m of s.matchAll(HIDDEN_ALL)) {
    if (keep?.(m[0])) continue;
    run += s.slice(last, m.index);
    if (run) out.push({ text: run });
    run = '';
    out.push({ hidden: m[0] });
    last = m.index! + m[0].length;
  }
  run += s.slice(last);
  if (run) out.push({ text: run });
  return out;
}

const SHORT_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One hidden character written as an escape: `\x1b` below U+0080 (`\t`, `\n`, `\r` for those three), else `\u{202e}`. */
function escapeChar(c: string): string {
  const cp = c.codePointAt(0)!;
  if (SHORT_ESCAPES[c]) return SHORT_ESCAPES[c];
  return cp < 0x80 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16)}}`;
}

/**
 * The one escaper of untrusted text for places that show plain text only: the CLI's terminal
 * (cli/terminal-text.ts) and VS Code's own dialogs and notifications (the host's modals). Every
 * hidden character (controls, bidi, zero-width) becomes its escape, except those `keep` accepts.
 * The webview shows the same characters as chips instead (webview VisibleText).
 */
export function escapeHidden(s: string, keep?: (c: string) => boolean): string {
  return splitHidden(s, keep)
    .map((p) => ('text' in p ? p.text : escapeChar(p.hidden)))
    .join('');
}
