import { useChat } from '../../app/context';
import { Icon } from '../../ui/Icon';
import { meterCost, meterDetailLines, meterDetails, meterFill, meterParts, nextCostLines, nextCostText } from './meter-format';
import type { ChatState, NextCost, RoundMeter } from '../../state/types';
import { EffortSelect, ModelButton, ModelPanel } from './ModelPicker';

export type StatusPanel = 'tools' | 'meter' | 'models' | null;

interface Props {
  panel: StatusPanel;
  onToggle(panel: Exclude<StatusPanel, null>): void;
}

/** The model (its picker) and its effort, the session's loaded tools and the latest round's context meter; each opens its details. */
export function ComposerStatus({ panel, onToggle }: Props) {
  const model = useChat((s) => s.session?.model);
  const loadedTools = useChat((s) => s.loadedTools);
  const meters = useChat((s) => s.meters);
  const latest = meters[meters.length - 1];
  const next = useChat(pendingNextCost);
  return (
    <div className="composer-status">
      {model ? <ModelButton model={model} open={panel === 'models'} onToggle={() => onToggle('models')} /> : null}
      <EffortSelect />
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
      {latest || next ? (
        <button
          type="button"
          className="status-button meter"
          data-kind="meter"
          title={[...(next ? nextCostLines(next) : []), ...(latest ? [meterDetails(latest)] : [])].join('; ')}
          aria-expanded={panel === 'meter'}
          onClick={() => onToggle('meter')}
        >
          <Icon name="dashboard" />
          <MeterText meter={latest} next={next} />
        </button>
      ) : null}
    </div>
  );
}

/**
 * The request the turn is about to send or waiting on, when its expected cost was told and its
 * round is not measured yet (the meter shows it ahead of the last round's cost); null otherwise.
 */
function pendingNextCost(s: ChatState): NextCost | null {
  const n = s.nextCost;
  const last = s.meters[s.meters.length - 1];
  return s.running && n && n.round > (last?.round ?? 0) ? n : null;
}

/** The meter's line: the cost first (what a narrow view keeps; the next request's while it is out), then how full the window is. */
function MeterText({ meter, next }: { meter?: RoundMeter; next: NextCost | null }) {
  if (next) {
    return (
      <span className="meter-text">
        <span className="meter-cost" data-kind="meter-next">
          {nextCostText(next)}
        </span>
        {meter ? <span className="meter-fill">{` · ${meterFill(meter).join(' · ')}`}</span> : null}
      </span>
    );
  }
  if (!meter) return null;
  const cost = meterCost(meter);
  const fill = meterFill(meter).join(' · ');
  return (
    <span className="meter-text">
      {cost ? (
        <>
          <span className="meter-cost" data-kind="meter-cost">
            {cost}
          </span>
          <span className="meter-fill">{` · ${fill}`}</span>
        </>
      ) : (
        fill
      )}
    </span>
  );
}

/** The list behind a status button, shown above the composer; `onClose` is for the model picker, which closes once a model is picked. */
export function StatusPanelView({ panel, onClose }: { panel: StatusPanel; onClose(): void }) {
  const loadedTools = useChat((s) => s.loadedTools);
  const meters = useChat((s) => s.meters);
  const next = useChat((s) => s.nextCost);
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
  if (panel === 'models') return <ModelPanel onClose={onClose} />;
  if (panel === 'meter') {
    const latest = meters[meters.length - 1];
    // The latest expectation: of the request out now, or of the latest round (beside what it cost).
    const measured = next && latest && next.round === latest.round ? latest : undefined;
    const lines = [...(next ? nextCostLines(next, measured) : []), ...(latest ? meterDetailLines(latest) : [])];
    return (
      <div className="status-panel" data-kind="meter-rounds" role="region" aria-label="Context per round">
        {lines.length ? (
          <div className="meter-details" data-kind="meter-details">
            {lines.map((line, i) => (
              <div className="meter-detail-line" key={i}>
                {line}
              </div>
            ))}
          </div>
        ) : null}
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
