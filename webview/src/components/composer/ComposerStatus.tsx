import { useChat } from '../../app/context';
import { Icon } from '../Icon';
import { meterDetails, meterParts } from './meter-format';

export type StatusPanel = 'tools' | 'meter' | null;

interface Props {
  panel: StatusPanel;
  onToggle(panel: Exclude<StatusPanel, null>): void;
}

/** The model, the session's loaded tools and the latest round's context meter; each opens its details. */
export function ComposerStatus({ panel, onToggle }: Props) {
  const model = useChat((s) => s.session?.model);
  const loadedTools = useChat((s) => s.loadedTools);
  const meters = useChat((s) => s.meters);
  const latest = meters[meters.length - 1];
  return (
    <div className="composer-status">
      {model ? <span className="model">{model}</span> : null}
      {loadedTools.length ? (
        <button
          type="button"
          className="status-button tools-count"
          title={`Loaded tools: ${loadedTools.join(', ')}`}
          aria-label={`${loadedTools.length} tools loaded`}
          aria-expanded={panel === 'tools'}
          onClick={() => onToggle('tools')}
        >
          <Icon name="tools" />
          {loadedTools.length}
        </button>
      ) : null}
      {latest ? (
        <button
          type="button"
          className="status-button meter"
          data-kind="meter"
          title={meterDetails(latest)}
          aria-expanded={panel === 'meter'}
          onClick={() => onToggle('meter')}
        >
          <Icon name="dashboard" />
          <span className="meter-text">{meterParts(latest).join(' · ')}</span>
        </button>
      ) : null}
    </div>
  );
}

/** The list behind a status button, shown above the composer. */
export function StatusPanelView({ panel }: { panel: StatusPanel }) {
  const loadedTools = useChat((s) => s.loadedTools);
  const meters = useChat((s) => s.meters);
  if (panel === 'tools') {
    return (
      <div className="status-panel" data-kind="loaded-tools" role="region" aria-label="Loaded tools">
        <div className="status-panel-title">Tools loaded in this session</div>
        <div className="status-panel-chips">
          {loadedTools.map((t) => (
            <span className="chip" key={t}>
              {t}
            </span>
          ))}
        </div>
      </div>
    );
  }
  if (panel === 'meter') {
    return (
      <div className="status-panel" data-kind="meter-rounds" role="region" aria-label="Context per round">
        <div className="status-panel-title">Context per round</div>
        <ol className="meter-rounds">
          {meters
            .slice()
            .reverse()
            .map((m, i) => (
              <li key={`${m.round}-${i}`} title={meterDetails(m)}>
                <span className="meter-round">R{m.round}</span> {meterParts(m).join(' · ')}
              </li>
            ))}
        </ol>
      </div>
    );
  }
  return null;
}
