/** The parts a mention keyword (`@problems`, `@terminal`, `@changes`) adds to a prompt: a block, a line, or a note. */
import type { ContentPart } from '../conversation/messages';

export const MENTION_KEYWORDS = ['problems', 'terminal', 'changes'] as const;
export type MentionKeyword = (typeof MENTION_KEYWORDS)[number];

/**
 * One keyword's prompt parts. `attached`: the model gets what was asked for (a block, or a line
 * saying there is nothing: no problems, no changes). Otherwise `note` says why not, for the model
 * and for the user, as a refused `@path` does.
 */
export interface KeywordResult {
  attached: boolean;
  parts: ContentPart[];
  note?: string;
}

export function notAvailable(word: MentionKeyword, why: string): KeywordResult {
  const note = `[@${word}: not attached: ${why}]`;
  return { attached: false, parts: [{ type: 'text', text: note }], note };
}

export function nothingThere(word: MentionKeyword, what: string): KeywordResult {
  return { attached: true, parts: [{ type: 'text', text: `[@${word}: ${what}]` }] };
}

export function block(text: string): KeywordResult {
  return { attached: true, parts: [{ type: 'text', text }] };
}

/** A value for an attribute of a block's opening line: no quotes or line breaks. */
export function attr(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').replace(/"/g, "'");
}
