import type { ToolItem } from '../../state/types';
import { prettyArgs } from './tool-args';
import { resultState } from './tool-state';

/** Longest result shown in a card; the rest stays in the host (the transcript file has it all). */
const SHOWN_RESULT_CHARS = 50_000;

function clipped(text: string): string {
  return text.length > SHOWN_RESULT_CHARS ? `${text.slice(0, SHOWN_RESULT_CHARS)}\n… ${text.length - SHOWN_RESULT_CHARS} more chars` : text;
}

/**
 * An opened tool card: the arguments as the model sent them and the result as the model saw
 * it; for a pruned result, the stub the model sees now, then the full result it saw before.
 */
export function ToolDetails({ item }: { item: ToolItem }) {
  const state = resultState(item);
  const finished = item.status !== 'running';
  return (
    <div className="tool-details">
      {state ? (
        <div className="tool-state-note" data-state={state.state}>
          {state.explain}
        </div>
      ) : null}
      <div className="tool-section">
        <div className="tool-section-title">Arguments to {item.tool}</div>
        <pre className="tool-args">{item.args ? prettyArgs(item.args) : '(none)'}</pre>
      </div>
      {item.output && (!finished || item.result === undefined) ? (
        <div className="tool-section">
          <div className="tool-section-title">{finished ? 'Output' : 'Output so far'}</div>
          <pre className="tool-output">{item.output}</pre>
        </div>
      ) : null}
      {finished && item.prunedStub !== undefined ? (
        <div className="tool-section">
          <div className="tool-section-title">What the model sees now</div>
          <pre className="tool-pruned-stub">{item.prunedStub}</pre>
        </div>
      ) : null}
      {finished ? (
        <div className="tool-section">
          <div className="tool-section-title">{item.prunedStub !== undefined ? 'Full result (as the model saw it before pruning)' : 'Result as the model saw it'}</div>
          <pre className="tool-result">{item.result !== undefined ? clipped(item.result) : item.summary || '(no result)'}</pre>
        </div>
      ) : null}
    </div>
  );
}
