import { useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

/** A popup list's key handlers: each returns true when the key was the popup's (false lets the composer act on it). */
export type PopupKeys = Record<string, () => boolean>;

export interface CaretPopup {
  /** Where the caret is in the draft (null when text is selected or the popup was closed). */
  caret: number | null;
  /** Puts `text` in the draft and the caret at `at` once React has updated the textarea. */
  place(text: string, at: number): void;
  /** Runs the popup's key, when the popup is open and the key is a plain press of one of `keys`. */
  keyDown(e: KeyboardEvent<HTMLTextAreaElement>, open: boolean, keys: PopupKeys): boolean;
  /** Call on input, select and focus changes so the popup follows the caret. */
  trackCaret(el: HTMLTextAreaElement): void;
  close(): void;
}

/** Row `index` moved by `by` in a list of `count` rows, wrapping around. */
export function stepRow(index: number, by: number, count: number): number {
  const n = Math.max(1, count);
  return (index + by + n) % n;
}

/**
 * What the composer's caret-anchored popups (the `@` mention popup and the `/` menu) share: the
 * caret they follow, putting the caret after what they insert, and their keyboard handling
 * (composing an IME character or holding Shift leaves every key to the textarea).
 */
export function useCaretPopup(textarea: RefObject<HTMLTextAreaElement | null>, draft: string, setDraft: (text: string) => void): CaretPopup {
  const [caret, setCaret] = useState<number | null>(null);
  const pendingCaret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = textarea.current;
    if (el && pendingCaret.current !== null) {
      el.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
  }, [draft, textarea]);

  return {
    caret,
    place(text, at) {
      pendingCaret.current = at;
      setCaret(at);
      setDraft(text);
    },
    keyDown(e, open, keys) {
      const key = keys[e.key];
      if (!open || !key || e.nativeEvent.isComposing || e.shiftKey) return false;
      if (!key()) return false;
      e.preventDefault();
      return true;
    },
    trackCaret(el) {
      setCaret(el.selectionStart === el.selectionEnd ? el.selectionStart : null);
    },
    close: () => setCaret(null),
  };
}
