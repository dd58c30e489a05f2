import { useState } from 'react';
import { useActions, useChat } from '../app/context';
import type { ApprovalRequest, AskRequest } from '../state/types';
import { BudgetCard } from './BudgetCard';
import { Icon } from '../ui/Icon';
import { ProposalLine } from './ProposalLine';
import { countHidden, VisibleText } from './VisibleText';

/** Questions the host is waiting on: tool approvals, ask_user questions and budget pauses, answered inline. */
export function PendingRequests() {
  const approvals = useChat((s) => s.approvals);
  const asks = useChat((s) => s.asks);
  const budgets = useChat((s) => s.budgets);
  if (!approvals.length && !asks.length && !budgets.length) return null;
  return (
    <div className="requests">
      {budgets.map((b) => (
        <BudgetCard key={b.id} request={b} />
      ))}
      {approvals.map((a) => (
        <ApprovalCard key={a.id} request={a} />
      ))}
      {asks.map((q) => (
        <AskCard key={q.id} request={q} />
      ))}
    </div>
  );
}

/**
 * What a tool wants to do, in full (a whole command, a path), why it asks, and the three answers.
 * Every text from the call shows its control, bidi and invisible characters as marked chips, and
 * the card says so when there are any (red-team N2: what the user reads is what runs).
 */
function ApprovalCard({ request }: { request: ApprovalRequest }) {
  const actions = useActions();
  const hidden = countHidden(request.tool, request.summary, request.detail, request.reason, request.proposal?.path);
  return (
    <div className="request-card" data-kind="approval" data-tool={request.tool} role="group" aria-label={`Approve ${request.tool}`}>
      <div className="request-title">
        <Icon name="shield" /> <b><VisibleText text={request.tool} /></b> wants to:
      </div>
      <pre className="request-summary">
        <VisibleText text={request.summary} />
      </pre>
      {request.proposal ? <ProposalLine proposal={request.proposal} /> : null}
      {request.detail ? (
        <pre className="request-summary request-detail" data-kind="approval-detail" tabIndex={0} aria-label="Full arguments">
          <VisibleText text={request.detail} />
        </pre>
      ) : null}
      {hidden ? (
        <div className="request-reason" data-kind="approval-hidden" role="alert">
          <Icon name="warning" />{' '}
          <span>
            This call holds {hidden} invisible or direction-changing character{hidden === 1 ? '' : 's'}, shown as &lt;U+…&gt;. They are part of what runs, and can make
            text read differently from what it does.
          </span>
        </div>
      ) : null}
      {request.reason ? (
        <div className="request-reason" data-kind="approval-reason">
          <Icon name="warning" />{' '}
          <span>
            <VisibleText text={request.reason} />
          </span>
        </div>
      ) : null}
      <div className="request-buttons">
        <button type="button" className="primary" onClick={() => actions.replyApproval(request.id, 'allow')}>
          {request.proposal ? 'Accept' : 'Allow once'}
        </button>
        {request.alwaysAsk || request.noAlways ? null : (
          <button
            type="button"
            className="request-always"
            title={request.commandPrefix ? `Run commands that start with "${request.commandPrefix}" without asking again (kept in approvals.commandRules of your user settings)` : `Run ${request.tool} without asking again in this window`}
            onClick={() => actions.replyApproval(request.id, 'allowAlways')}
          >
            {request.commandPrefix ? (
              <>
                Always allow{' '}
                <code>
                  <VisibleText text={request.commandPrefix} />
                </code>
              </>
            ) : (
              'Always allow this tool'
            )}
          </button>
        )}
        <button type="button" onClick={() => actions.replyApproval(request.id, 'deny')}>
          {request.proposal ? 'Reject' : 'Deny'}
        </button>
      </div>
    </div>
  );
}

/** ask_user: pick one of the offered answers or type another. */
function AskCard({ request }: { request: AskRequest }) {
  const actions = useActions();
  const [answer, setAnswer] = useState('');
  const choices = request.choices ?? [];
  return (
    <div className="request-card" data-kind="ask" role="group" aria-label="Question from Snowpea">
      <div className="request-title">
        <Icon name="question" /> <VisibleText text={request.question} />
      </div>
      {choices.length ? (
        <div className="request-buttons">
          {choices.map((c) => (
            <button type="button" key={c} onClick={() => actions.replyAsk(request.id, c)}>
              <VisibleText text={c} />
            </button>
          ))}
        </div>
      ) : null}
      <form
        className="request-buttons"
        onSubmit={(e) => {
          e.preventDefault();
          if (answer.trim()) actions.replyAsk(request.id, answer.trim());
        }}
      >
        <input aria-label={choices.length ? 'Other answer' : 'Answer'} placeholder={choices.length ? 'Or type another answer' : ''} value={answer} onChange={(e) => setAnswer(e.target.value)} />
        <button type="submit" className="primary" disabled={!answer.trim()}>
          Answer
        </button>
      </form>
    </div>
  );
}
