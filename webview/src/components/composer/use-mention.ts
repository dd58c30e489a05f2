import { useEffect, useMemo, useState, type KeyboardEvent, type RefObject } from 'react';
import { useActions, useChat } from '../../app/context';
import { rankPaths, type FuzzyMatch } from '../../mention/fuzzy';
import { matchKeywords, type MentionKeyword } from '../../mention/keywords';
import { insertMention, mentionAt } from '../../mention/mention';
import { stepRow, useCaretPopup, type PopupKeys } from './use-caret-popup';

/** One row of the popup: a keyword (`@problems`) or a workspace file; `match.path` is what is inserted. */
export type MentionOption = { kind: 'keyword'; keyword: MentionKeyword; match: FuzzyMatch } | { kind: 'file'; match: FuzzyMatch };

export interface MentionPopupState {
  /** The popup is showing (a mention is being typed: keywords match, or the host has answered something). */
  open: boolean;
  /** Matching keywords first, then files. */
  matches: MentionOption[];
  /** The host answered this very query with no file, and no keyword matches. */
  empty: boolean;
  active: number;
  setActive(index: number): void;
  choose(path: string): void;
  /** Handles popup keys; true when the key was the popup's (the composer must not act on it). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** Call on input, select and focus changes so the popup follows the caret. */
  trackCaret(el: HTMLTextAreaElement): void;
  close(): void;
}

/** The `@` popup: the keywords that match, then files (asked of the host as the query changes, ranked fuzzily); inserts `@word` or `@path`. */
export function useMention(draft: string, textarea: RefObject<HTMLTextAreaElement | null>): MentionPopupState {
  const actions = useActions();
  const fileResults = useChat((s) => s.fileResults);
  const popup = useCaretPopup(textarea, draft, actions.setDraft);
  const caret = popup.caret;
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);

  const mention = caret === null ? null : mentionAt(draft, caret);
  const live = mention !== null && mention.start !== dismissedAt;
  const query = live ? mention.query : null;

  useEffect(() => {
    if (query === null) return;
    actions.queryFiles(query);
    setActive(0);
  }, [query, actions]);
  useEffect(() => {
    if (query === null) actions.endFileQuery();
  }, [query, actions]);

  const matches = useMemo((): MentionOption[] => {
    if (query === null) return [];
    const keywords = matchKeywords(query).map(({ keyword, match }): MentionOption => ({ kind: 'keyword', keyword, match }));
    const files = fileResults ? rankPaths(query, fileResults.paths).map((match): MentionOption => ({ kind: 'file', match })) : [];
    return [...keywords, ...files];
  }, [query, fileResults]);
  const empty = query !== null && fileResults?.query === query && matches.length === 0;

  const choose = (path: string) => {
    if (!mention || caret === null) return;
    // The caret goes after the inserted path.
    const next = insertMention(draft, caret, mention, path);
    popup.place(next.text, next.caret);
  };

  const open = live && (matches.length > 0 || empty);
  // Enter and Tab with no match are the composer's.
  const pick = () => (matches.length ? (matches[active] && choose(matches[active].match.path), true) : false);
  const keys: PopupKeys = {
    ArrowDown: () => (setActive(stepRow(active, 1, matches.length)), true),
    ArrowUp: () => (setActive(stepRow(active, -1, matches.length)), true),
    Enter: pick,
    Tab: pick,
    Escape: () => (mention && setDismissedAt(mention.start), true),
  };

  return {
    open,
    matches,
    empty,
    active: Math.min(active, Math.max(0, matches.length - 1)),
    setActive,
    choose,
    onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => popup.keyDown(e, open, keys),
    trackCaret: popup.trackCaret,
    close: popup.close,
  };
}
