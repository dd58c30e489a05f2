import * as vscode from 'vscode';
import { ModelError } from '../../core/model/types';
import type { Logger } from '../../core/log';
import type { CompactionOutcome } from '../../core/context/compaction/compactor';
import { CompactRefused } from '../../core/chat/controller';
import { showError, showInfo, showWarning } from '../dialogs';

/**
 * Snowpea: Compact Conversation and `/compact [focus]` in the chat: compacts the current session
 * with a cancellable notification while the model writes the summary. The chat shows the divider
 * (the agent's `compaction` event); what else happens is said in a notification: nothing to
 * compact yet, a refusal, cancellation, or the error.
 */
export async function compactConversation(host: { compact(focus: string | undefined, controller: AbortController): Promise<CompactionOutcome | undefined> }, log: Pick<Logger, 'error'>, focus?: string): Promise<void> {
  const controller = new AbortController();
  try {
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Snowpea: compacting the conversation…', cancellable: true },
      (_progress, token) => {
        const cancel = token.onCancellationRequested(() => controller.abort());
        return host.compact(focus?.trim() || undefined, controller).finally(() => cancel.dispose());
      },
    );
    if (!outcome) void showInfo('Snowpea: nothing to compact yet; the conversation has no earlier rounds to summarize.');
  } catch (e) {
    if (e instanceof CompactRefused) void showWarning(`Snowpea: ${e.message}`);
    else if (e instanceof ModelError && e.kind === 'cancelled') void showInfo('Snowpea: compaction cancelled; the conversation is unchanged.');
    else {
      log.error(`compaction failed: ${(e as Error).stack ?? e}`);
      void showError(`Snowpea: compacting the conversation failed: ${(e as Error).message}`);
    }
  }
}
