import type { Token, Tokens, TokensList } from 'marked';
import { lexMarkdown, renderTokens } from './render';

/**
 * Model text split at its top-level fenced and indented code blocks: the code blocks become
 * React components (with Copy and Insert), everything between them sanitized HTML.
 */
export type Segment = { kind: 'html'; html: string } | { kind: 'code'; code: string; language?: string };

/** `ts {title="a"}` -> `ts`; empty -> undefined. */
function languageOf(info: string | undefined): string | undefined {
  const word = info?.trim().split(/\s+/, 1)[0];
  return word ? word : undefined;
}

export function splitMarkdown(source: string): Segment[] {
  const tokens = lexMarkdown(source);
  const segments: Segment[] = [];
  let pending: Token[] = [];
  const flush = () => {
    if (!pending.length) return;
    const list = Object.assign(pending, { links: tokens.links }) as TokensList;
    segments.push({ kind: 'html', html: renderTokens(list) });
    pending = [];
  };
  for (const token of tokens) {
    if (token.type === 'code') {
      flush();
      const code = token as Tokens.Code;
      const language = languageOf(code.lang);
      segments.push({ kind: 'code', code: code.text, ...(language ? { language } : {}) });
    } else {
      pending.push(token);
    }
  }
  flush();
  return segments;
}
