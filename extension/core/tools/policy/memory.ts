import type { SourceScope } from '../../settings/load';
import type { ApprovalState } from '../types';

/**
 * What the user already said about approvals, for one agent (a VS Code window or one CLI run):
 * tools they answered "always" for, and whether they approved ordinary requests up front (--yes).
 */
export class ApprovalMemory implements ApprovalState {
  readonly always = new Set<string>();
  readonly commandAllow = new Set<string>();

  constructor(
    readonly preapproved = false,
    /** Who set approvals.autoApprove (the loader drops workspace values; this keeps the policy honest if one slips through). */
    public autoApproveFrom: SourceScope | 'default' = 'user',
  ) {}
}
