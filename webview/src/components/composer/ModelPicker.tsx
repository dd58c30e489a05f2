import { useEffect, useState, type KeyboardEvent } from 'react';
import { EFFORTS, type Effort } from '../../../../extension/protocol';
import { useActions, useChat } from '../../app/context';
import { Icon } from '../../ui/Icon';
import { VisibleText } from '../VisibleText';
import './model-picker.css';

/** Most models the list shows at once; typing narrows the rest down. */
const MAX_SHOWN = 100;
const LIST_ID = 'snowpea-model-list';
const optionId = (i: number) => `snowpea-model-${i}`;

/** A model name the host takes (extension/core/model/model-choice.ts checks it again). */
const typedName = (q: string) => q.length > 0 && q.length <= 200 && !/[\s\p{Cc}\p{Cf}]/u.test(q);

/**
 * The session's model in the composer's status line, as a button that opens the picker (no chevron:
 * at 300 px its width goes to the name). A long `org/path/model` gives way from the left, so its own
 * name (the tail) stays readable; the whole name is in the title.
 */
export function ModelButton({ model, open, onToggle }: { model: string; open: boolean; onToggle(): void }) {
  const cut = model.lastIndexOf('/') + 1;
  return (
    <button type="button" className="status-button model-button" data-kind="model-picker" aria-label={`Model: ${model}. Choose the model`} aria-expanded={open} onClick={onToggle}>
      <span className="model" title={model} data-testid="model">
        {cut > 0 ? (
          <span className="model-org">
            <VisibleText text={model.slice(0, cut)} />
          </span>
        ) : null}
        <span className="model-name">
          <VisibleText text={model.slice(cut)} />
        </span>
      </span>
    </button>
  );
}

/**
 * How hard the session's model reasons (shown only for a model that takes it): `reasoning_effort`
 * for OpenAI-compatible reasoning models, a thinking budget for Claude. "default" (or "off") sends
 * what the settings say.
 */
export function EffortSelect() {
  const effort = useChat((s) => s.session?.effort);
  const actions = useActions();
  if (!effort) return null;
  const what = effort.control === 'thinking' ? "Claude's thinking budget (low 2,048, medium 8,192, high 16,384 tokens)" : 'Reasoning effort (reasoning_effort)';
  return (
    <label className="effort" title={`${what} for this chat's next requests. ${effort.defaultLabel}: ${effort.defaultMeans}.`}>
      <Icon name="lightbulb" />
      <select
        aria-label="Reasoning effort"
        data-kind="effort"
        value={effort.picked ?? ''}
        onChange={(e) => actions.pickEffort(e.target.value ? (e.target.value as Effort) : null)}
      >
        <option value="">{effort.defaultLabel}</option>
        {EFFORTS.map((e) => (
          <option key={e} value={e}>
            {e}
          </option>
        ))}
      </select>
    </label>
  );
}

interface Choice {
  /** null: back to the model.name setting. */
  value: string | null;
  label: string;
  note?: string;
}

/**
 * The picker, above the composer: a box to filter (or type a name the provider did not list) and
 * the provider's models, the settings' default first. Arrows move, Enter picks, Escape closes.
 * The pick is the session's (stored with it), for its next request.
 */
export function ModelPanel({ onClose }: { onClose(): void }) {
  const session = useChat((s) => s.session);
  const list = useChat((s) => s.models);
  const actions = useActions();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  useEffect(() => actions.listModels(), [actions]);

  const current = session?.model ?? '';
  const fallback = session?.defaultModel ?? current;
  const q = query.trim();
  const has = (m: string) => m.toLowerCase().includes(q.toLowerCase());
  const models = list?.status === 'done' ? list.models : [];
  const matching = models.filter((m) => m !== fallback && has(m));
  const choices: Choice[] = [
    ...(has(fallback) ? [{ value: null, label: fallback, note: 'default' }] : []),
    ...matching.slice(0, MAX_SHOWN).map((m) => ({ value: m, label: m })),
    ...(typedName(q) && q !== fallback && !models.includes(q) ? [{ value: q, label: q, note: 'use this name' }] : []),
  ];
  const at = Math.min(active, Math.max(0, choices.length - 1));
  const isCurrent = (c: Choice) => (c.value ?? fallback) === current;

  const choose = (c: Choice) => {
    if (!isCurrent(c)) actions.pickModel(c.value);
    onClose();
  };
  const keys: Record<string, () => void> = {
    ArrowDown: () => setActive((at + 1) % Math.max(1, choices.length)),
    ArrowUp: () => setActive((at - 1 + choices.length) % Math.max(1, choices.length)),
    Enter: () => choices[at] && choose(choices[at]),
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const key = keys[e.key];
    if (!key || e.nativeEvent.isComposing) return;
    e.preventDefault();
    key();
  };

  return (
    <div className="status-panel model-panel" data-kind="model-panel" role="region" aria-label="Choose the model">
      <input
        className="model-filter"
        type="text"
        role="combobox"
        aria-label="Filter models, or type a model name"
        aria-expanded="true"
        aria-controls={LIST_ID}
        aria-activedescendant={choices.length ? optionId(at) : undefined}
        placeholder="Filter, or type a model name"
        value={query}
        autoFocus
        spellCheck={false}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      {list?.status === 'loading' ? <div className="model-status">Asking the provider for its models…</div> : null}
      {list?.status === 'done' && list.error ? (
        <div className="model-status" data-kind="model-error">
          <VisibleText text={list.error} />
        </div>
      ) : null}
      <ul id={LIST_ID} role="listbox" aria-label="Models">
        {choices.map((c, i) => (
          <li
            key={`${c.value ?? ''}:${c.label}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === at}
            data-current={isCurrent(c) ? 'true' : undefined}
            className={i === at ? 'active' : undefined}
            // mousedown, not click: the filter keeps focus until the pick is made.
            onMouseDown={(e) => {
              e.preventDefault();
              choose(c);
            }}
            onMouseEnter={() => setActive(i)}
          >
            <Icon name={isCurrent(c) ? 'check' : 'blank'} />
            <span className="model-option-name">
              <VisibleText text={c.label} />
            </span>
            {c.note ? <span className="model-option-note">{c.note}</span> : null}
          </li>
        ))}
      </ul>
      {matching.length > MAX_SHOWN ? <div className="model-status">{`${matching.length - MAX_SHOWN} more: type to narrow the list`}</div> : null}
    </div>
  );
}
