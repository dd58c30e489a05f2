import { randomUUID } from 'node:crypto';
import { lineCounts } from '../../core/tools/core/proposal';
import type { ApprovalAnswer, ApprovalDecision, ApprovalRequest, Approver, WriteProposal } from '../../core/tools/types';
import type { BudgetAnswer, BudgetAsker, BudgetPause } from '../../core/agent/budget/types';
import type { HostMessage } from '../../protocol';

/** Shows a proposed write for review beside the card (the diff editor): either answers, `finish` returns the text accepted. */
export interface ProposalReviewer {
  open(id: string, proposal: WriteProposal, answer: (decision: ApprovalDecision) => void): Promise<void>;
  finish(id: string): Promise<string | undefined>;
}

type Pending<T> = { resolve: (v: T) => void; cleanup: () => void; message: HostMessage };

/**
 * Approvals, ask_user questions and budget pauses shown inline in the chat. It only asks: the
 * policy (core/tools/policy) decided that this call needs the user, and remembers an "always"
 * answer; the budget (core/agent/budget) decided that the next request would pass it.
 */
export class WebviewPrompts implements Approver, BudgetAsker {
  private readonly approvals = new Map<string, Pending<'allow' | 'allowAlways' | 'deny'>>();
  private readonly questions = new Map<string, Pending<string>>();
  private readonly budgets = new Map<string, Pending<BudgetAnswer>>();

  constructor(
    private readonly post: (msg: HostMessage) => void,
    private readonly reviewer?: ProposalReviewer,
    /** A request the turn now waits on was shown (the host notifies a user who looks elsewhere). */
    private readonly onWaiting?: (msg: HostMessage) => void,
  ) {}

  /** A write's proposal opens in the reviewer too; the card's answer and the diff's are one answer, and the card goes either way. */
  async approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | ApprovalAnswer> {
    const id = randomUUID();
    const p = req.proposal;
    const review = p && this.reviewer;
    if (review) void review.open(id, p, (d) => this.replyApproval(id, d));
    const decision = await this.wait<ApprovalDecision>(this.approvals, id, signal, 'deny', {
      type: 'approval.request',
      id,
      tool: req.tool,
      summary: req.summary,
      alwaysAsk: req.alwaysAsk,
      ...(req.commandPrefix ? { commandPrefix: req.commandPrefix } : {}),
      ...(req.noAlways ? { noAlways: true } : {}),
      ...(req.reason ? { reason: req.reason } : {}),
      ...(req.detail ? { detail: req.detail } : {}),
      ...(p ? { proposal: { path: p.display, created: p.created, ...lineCounts(p.current, p.proposed) } } : {}),
    });
    if (!review) return decision;
    const text = await review.finish(id);
    this.post({ type: 'approval.settled', id });
    return decision === 'deny' || text === undefined ? decision : { decision, text };
  }

  askUser = (question: string, choices: string[] | undefined, signal: AbortSignal): Promise<string> => {
    const id = randomUUID();
    return this.wait(this.questions, id, signal, '', { type: 'ask.request', id, question, ...(choices ? { choices } : {}) });
  };

  /** The budget card: a turn stopped meanwhile (Stop, New Chat) answers stop, which the turn takes as cancelled. */
  ask = (pause: BudgetPause, signal: AbortSignal): Promise<BudgetAnswer> => {
    const { expected: e } = pause;
    const id = randomUUID();
    return this.wait<BudgetAnswer>(this.budgets, id, signal, { decision: 'stop' }, {
      type: 'budget.request',
      id,
      model: pause.model,
      cost: e.cost,
      promptTokens: e.promptTokens,
      cachedTokens: e.cachedTokens,
      passes: pause.passes,
    });
  };

  /** The requests still waiting for an answer, oldest first: a webview that reloads (or was hidden) gets them again. */
  pendingMessages(): HostMessage[] {
    return [...this.approvals.values(), ...this.questions.values(), ...this.budgets.values()].map((p) => p.message);
  }

  replyBudget(id: string, answer: BudgetAnswer): void {
    this.budgets.get(id)?.resolve(answer);
  }

  replyApproval(id: string, decision: 'allow' | 'allowAlways' | 'deny'): void {
    this.approvals.get(id)?.resolve(decision);
  }

  replyAsk(id: string, answer: string): void {
    this.questions.get(id)?.resolve(answer);
  }

  private wait<T>(map: Map<string, Pending<T>>, id: string, signal: AbortSignal, onAbort: T, message: HostMessage): Promise<T> {
    return new Promise<T>((resolve) => {
      const abort = () => finish(onAbort);
      const finish = (v: T) => {
        map.get(id)?.cleanup();
        resolve(v);
      };
      map.set(id, {
        message,
        resolve: finish,
        cleanup: () => {
          map.delete(id);
          signal.removeEventListener('abort', abort);
        },
      });
      if (signal.aborted) return finish(onAbort);
      signal.addEventListener('abort', abort, { once: true });
      this.post(message);
      this.onWaiting?.(message);
    });
  }
}
