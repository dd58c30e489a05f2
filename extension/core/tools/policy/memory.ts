import type { SourceScope } from '../../settings/load';
import type { ApprovalState } from '../types';

/**
 * What the user already said about approvals, for one agent (a VS Code window or one CLI run):
 * tools they answered "always" for, command prefixes they always allowed on a shell card, and
 * whether they approved ordinary requests up front (--yes).
 */
export class ApprovalMemory implements ApprovalState {
  readonly always = new Set<string>();
  readonly commandAllow = new Set<string>();

  constructor(
    readonly preapproved = false,
    /** Who set approvals.autoApprove (the loader drops workspace values; this keeps the policy honest if one slips through). */
    public autoApproveFrom: SourceScope | 'default' = 'user',
    /** Keeps a shell card's "always allow <prefix>" beyond this window (the host adds it to the user's approvals.commandRules). */
    private readonly keepCommandRule?: (prefix: string) => void,
  ) {}

  /** A shell card's "always allow <prefix>": allowed from now on in this window or run, and handed to keepCommandRule once. */
  allowCommand(prefix: string): void {
    if (this.commandAllow.has(prefix)) return;
    this.commandAllow.add(prefix);
    this.keepCommandRule?.(prefix);
  }
}
