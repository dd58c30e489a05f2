import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useActions, useChat } from '../../app/context';
import { rankPaths, type FuzzyMatch } from '../../mention/fuzzy';
import { matchKeywords, type MentionKeyword } from '../../mention/keywords';
import { insertMention, mentionAt } from '../../mention/mention';

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
  const [caret, setCaret] = useState<number | null>(null);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const pendingCaret = useRef<number | null>(null);

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

  // After inserting, put the caret after the inserted path (once React has updated the textarea).
  useLayoutEffect(() => {
    const el = textarea.current;
    if (el && pendingCaret.current !== null) {
      el.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
  }, [draft, textarea]);

  const choose = (path: string) => {
    if (!mention || caret === null) return;
    const next = insertMention(draft, caret, mention, path);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    actions.setDraft(next.text);
  };

  const open = live && (matches.length > 0 || empty);
  const keys: Record<string, () => void> = {
    ArrowDown: () => setActive((active + 1) % Math.max(1, matches.length)),
    ArrowUp: () => setActive((active - 1 + matches.length) % Math.max(1, matches.length)),
    Enter: () => matches[active] && choose(matches[active].match.path),
    Tab: () => matches[active] && choose(matches[active].match.path),
    Escape: () => mention && setDismissedAt(mention.start),
  };

  return {
    open,
    matches,
    empty,
    active: Math.min(active, Math.max(0, matches.length - 1)),
    setActive,
    choose,
    onKeyDown(e) {
      const key = keys[e.key];
      if (!open || !key || e.nativeEvent.isComposing || e.shiftKey || ((e.key === 'Enter' || e.key === 'Tab') && !matches.length)) return false;
      e.preventDefault();
      key();
      return true;
    },
    trackCaret(el) {
      setCaret(el.selectionStart === el.selectionEnd ? el.selectionStart : null);
    },
    close: () => setCaret(null),
  };
}
