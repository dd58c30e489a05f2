import type { ReactNode } from 'react';
import type { FuzzyMatch } from '../../mention/fuzzy';
import { Icon } from '../../ui/Icon';
import type { MentionOption, MentionPopupState } from './use-mention';

export const MENTION_LIST_ID = 'snowpea-mention-list';
export const mentionOptionId = (i: number) => `snowpea-mention-${i}`;

/** The path with its matched characters in bold. */
function highlighted(m: FuzzyMatch): ReactNode[] {
  const marks = new Set(m.positions);
  return [...m.path].map((ch, i) => (marks.has(i) ? <b key={i}>{ch}</b> : ch));
}

/** A keyword's row: its name (matched characters bold) and what it attaches; a file's: its path. */
function OptionRow({ option }: { option: MentionOption }) {
  if (option.kind === 'file') {
    return (
      <>
        <Icon name="file" /> <span className="mention-path">{highlighted(option.match)}</span>
      </>
    );
  }
  return (
    <>
      <Icon name={option.keyword.icon} /> <span className="mention-keyword">{highlighted(option.match)}</span>
      <span className="mention-description">{option.keyword.description}</span>
    </>
  );
}

/** `@problems`, `@terminal`, `@changes` and workspace files for the `@` being typed; arrows move, Enter/Tab insert, Escape closes. */
export function MentionPopup({ state }: { state: MentionPopupState }) {
  if (!state.open) return null;
  return (
    <div className="mention-popup" data-kind="mentions">
      {state.empty ? <div className="mention-empty">No matching files</div> : null}
      <ul id={MENTION_LIST_ID} role="listbox" aria-label="Keywords and workspace files">
        {state.matches.map((m, i) => (
          <li
            key={`${m.kind}:${m.match.path}`}
            id={mentionOptionId(i)}
            role="option"
            aria-selected={i === state.active}
            data-kind={m.kind === 'keyword' ? 'mention-keyword' : undefined}
            className={i === state.active ? 'active' : undefined}
            // mousedown, not click: the textarea keeps focus and its caret.
            onMouseDown={(e) => {
              e.preventDefault();
              state.choose(m.match.path);
            }}
            onMouseEnter={() => state.setActive(i)}
          >
            <OptionRow option={m} />
          </li>
        ))}
      </ul>
    </div>
  );
}
