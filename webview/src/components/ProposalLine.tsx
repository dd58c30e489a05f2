import type { ApprovalRequest } from '../state/types';
import { LineCounts } from './LineCounts';
import { VisibleText } from './VisibleText';
import './edits.css';

/** On a write's approval card: the file, its line counts, and where to see and change the proposal. */
export function ProposalLine({ proposal }: { proposal: NonNullable<ApprovalRequest['proposal']> }) {
  return (
    <div className="proposal-line" data-kind="proposal">
      <span className="proposal-path">
        <VisibleText text={proposal.path} />
      </span>
      {proposal.created ? <span className="hint">(new file)</span> : null}
      <LineCounts added={proposal.added} removed={proposal.removed} />
      <span className="hint">— review or change it in the diff editor before accepting</span>
    </div>
  );
}
