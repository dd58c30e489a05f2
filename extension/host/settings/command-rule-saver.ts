import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { Settings } from '../../core/settings/schema';
import { withAllowed } from '../../core/tools/policy/command-rules';
import { showWarning } from '../dialogs';

/**
 * A shell card's "always allow <prefix>" kept in the user's settings (snowpea.approvals.commandRules,
 * the only scope the rules are read from), as Copilot and Claude Code keep such answers. The new value
 * starts from the rules in effect (which may come from ~/.snowpea/settings.json), so no rule the user
 * had is lost when the VS Code value takes over. A failed write is said; the rule still holds in this window.
 */
export function commandRuleSaver(current: () => Settings, log: Logger): (prefix: string) => void {
  return (prefix) => {
    const next = withAllowed(current()['approvals.commandRules'], prefix);
    if (!next) return;
    const config = vscode.workspace.getConfiguration('snowpea');
    Promise.resolve(config.update('approvals.commandRules', next, vscode.ConfigurationTarget.Global)).then(
      () => log.info(`"always allow ${prefix}" saved to approvals.commandRules in your user settings`),
      (e: Error) => {
        log.warn(`could not save "always allow ${prefix}" to approvals.commandRules: ${e.message}`);
        void showWarning(`Snowpea: could not save "always allow ${prefix}" to your settings (${e.message}); it holds in this window only.`);
      },
    );
  };
}
