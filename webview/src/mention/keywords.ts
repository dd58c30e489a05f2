/**
 * The `@` words that are not paths: what the editor knows, attached by the host when the message
 * is sent (extension/core/input/mention-keywords.ts). The popup offers them above the files.
 */
import { fuzzyMatch, type FuzzyMatch } from './fuzzy';

export interface MentionKeyword {
  name: 'problems' | 'terminal' | 'changes';
  /** What it attaches, in a few words. */
  description: string;
  icon: string;
}

export const MENTION_KEYWORDS: readonly MentionKeyword[] = [
  { name: 'problems', description: 'errors and warnings in the workspace', icon: 'warning' },
  { name: 'terminal', description: "the active terminal's last command and output", icon: 'terminal' },
  { name: 'changes', description: 'the working tree’s git diff', icon: 'git-compare' },
];

/** The keywords the query matches (fuzzily, as files are), in their fixed order. */
export function matchKeywords(query: string): Array<{ keyword: MentionKeyword; match: FuzzyMatch }> {
  return MENTION_KEYWORDS.flatMap((keyword) => {
    const match = fuzzyMatch(query, keyword.name);
    return match ? [{ keyword, match }] : [];
  });
}
