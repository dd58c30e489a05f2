/** Server text made fit for one line of an error message. */

/** Longest server text an error message quotes. */
export const SERVER_TEXT_CHARS = 200;

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Server text fit for one line of an error: HTML tags (and scripts, styles) removed, whitespace collapsed, capped. */
export function plainServerText(raw: string, max = SERVER_TEXT_CHARS): string {
  let t = raw;
  if (/<\/?[a-z!][^>]*>/i.test(t)) {
    t = t
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, n: string) => entities[n]!);
  }
  t = t.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
