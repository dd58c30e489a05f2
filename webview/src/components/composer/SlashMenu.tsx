import { Icon } from '../../ui/Icon';
import { VisibleText } from '../VisibleText';
import type { SlashMenuState } from './use-slash';

export const SLASH_LIST_ID = 'snowpea-slash-list';
export const slashOptionId = (i: number) => `snowpea-slash-${i}`;

/** The commands for the `/` being typed: name, argument hint, description and origin (a file's text marked where hidden characters hide). */
export function SlashMenu({ state }: { state: SlashMenuState }) {
  if (!state.open) return null;
  return (
    <div className="mention-popup slash-menu" data-kind="commands">
      <ul id={SLASH_LIST_ID} role="listbox" aria-label="Commands">
        {state.items.map((c, i) => (
          <li
            key={c.name}
            id={slashOptionId(i)}
            role="option"
            aria-selected={i === state.active}
            className={i === state.active ? 'active' : undefined}
            title={c.origin}
            // mousedown, not click: the textarea keeps focus and its caret.
            onMouseDown={(e) => {
              e.preventDefault();
              state.choose(c.name);
            }}
            onMouseEnter={() => state.setActive(i)}
          >
            <Icon name={c.origin === 'Snowpea' ? 'symbol-event' : 'file'} />
            <span className="slash-name">
              /<VisibleText text={c.name} />
              {c.argumentHint ? (
                <span className="slash-hint">
                  {' '}
                  <VisibleText text={c.argumentHint} />
                </span>
              ) : null}
            </span>
            {c.description ? (
              <span className="slash-description">
                <VisibleText text={c.description} />
              </span>
            ) : null}
            {c.origin === 'Snowpea' ? null : (
              <span className="slash-origin">
                <VisibleText text={c.origin} />
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
