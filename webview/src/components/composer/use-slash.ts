import { useMemo, useState, type KeyboardEvent, type RefObject } from 'react';
import { useActions, useChat } from '../../app/context';
import { insertSlash, slashMatches, slashQueryAt, type SlashMenuItem } from '../../app/slash-menu';
import { stepRow, useCaretPopup, type PopupKeys } from './use-caret-popup';

export interface SlashMenuState {
  /** The menu is showing: the draft starts with `/word`, the caret in it, and some command matches. */
  open: boolean;
  items: SlashMenuItem[];
  active: number;
  setActive(index: number): void;
  choose(name: string): void;
  /** Handles menu keys; true when the key was the menu's (the composer must not act on it). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  trackCaret(el: HTMLTextAreaElement): void;
  close(): void;
}

/**
 * The slash menu: typing `/` at the start of the message lists the composer's commands and the
 * prompt files' (the host's `commands`); arrows move, Enter or Tab put `/name ` in the draft,
 * Escape closes. Enter on a name typed in full sends it, as without the menu.
 */
export function useSlashMenu(draft: string, textarea: RefObject<HTMLTextAreaElement | null>): SlashMenuState {
  const actions = useActions();
  const commands = useChat((s) => s.commands);
  const agents = useChat((s) => s.agents);
  const popup = useCaretPopup(textarea, draft, actions.setDraft);
  const caret = popup.caret;
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [active, setActive] = useState(0);

  const query = caret === null ? null : slashQueryAt(draft, caret);
  const items = useMemo(() => (query === null ? [] : slashMatches(query, commands, 12, agents)), [query, commands, agents]);
  const open = query !== null && items.length > 0 && dismissed !== draft;
  const current = Math.min(active, Math.max(0, items.length - 1));

  const choose = (name: string) => {
    if (caret === null) return;
    const next = insertSlash(draft, caret, name);
    setActive(0);
    popup.place(next.text, next.caret);
  };

  const keys: PopupKeys = {
    ArrowDown: () => (setActive(stepRow(current, 1, items.length)), true),
    ArrowUp: () => (setActive(stepRow(current, -1, items.length)), true),
    // A name typed in full: Enter sends it (the composer acts); otherwise the active row goes in.
    Enter: () => (items[current].name.toLowerCase() === query?.toLowerCase() ? false : (choose(items[current].name), true)),
    Tab: () => (choose(items[current].name), true),
    Escape: () => (setDismissed(draft), true),
  };

  return {
    open,
    items,
    active: current,
    setActive,
    choose,
    onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => popup.keyDown(e, open, keys),
    trackCaret: popup.trackCaret,
    close: popup.close,
  };
}
