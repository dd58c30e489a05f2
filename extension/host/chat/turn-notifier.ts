import * as vscode from 'vscode';
import type { TurnEndReason } from '../../core/conversation/events';
import type { HostMessage } from '../../protocol';
import { showInfo, showWarning } from '../dialogs';

const SHOW_CHAT = 'Show Chat';
/** Most characters of a title, tool summary or question a notification quotes. */
const QUOTE_CHARS = 120;

export interface TurnNotifierDeps {
  /** snowpea.chat.notifyWhenUnfocused. */
  enabled(): boolean;
  /** The chat's session title, quoted in a turn's notification. */
  title(): string;
  /** Shows the chat (Snowpea: Focus Chat). */
  showChat(): void;
}

/**
 * Tells a user who looks elsewhere (the VS Code window is not focused) that the chat needs them: a
 * turn ended and nothing waits to run after it, or a turn waits for an approval, an answer or a
 * budget decision. Like
 * Copilot Chat's window notifications; snowpea.chat.notifyWhenUnfocused turns it off. A stopped turn
 * says nothing (the user stopped it). Every text goes through dialogs.ts (titles and tool summaries
 * come from prompts and models), quoted short.
 */
export class TurnNotifier {
  constructor(private readonly d: TurnNotifierDeps) {}

  /** The chat went idle after a turn (ChatHooks.idle). */
  turnEnded(reason: TurnEndReason): void {
    const text = turnEndedText(reason, this.d.title());
    if (text) this.notify(text, reason === 'done' ? 'info' : 'warning');
  }

  /** The host posted a request the turn waits on (an approval card, an ask_user question). */
  waiting(message: HostMessage): void {
    if (message.type === 'approval.request') this.notify(`Snowpea waits for your approval: ${quote(message.summary || message.tool)}`, 'warning');
    else if (message.type === 'ask.request') this.notify(`Snowpea asks: ${quote(message.question)}`, 'warning');
    else if (message.type === 'budget.request') this.notify('Snowpea paused: its next request would pass your budget (agent.budget).', 'warning');
  }

  private notify(text: string, kind: 'info' | 'warning'): void {
    if (!this.d.enabled() || vscode.window.state.focused) return;
    const shown = kind === 'info' ? showInfo(text, SHOW_CHAT) : showWarning(text, SHOW_CHAT);
    void Promise.resolve(shown).then((pick) => pick === SHOW_CHAT && this.d.showChat());
  }
}

/** The notification of a turn that ended, by why; undefined for a stopped one. */
export function turnEndedText(reason: TurnEndReason, title: string): string | undefined {
  const what = quote(title);
  switch (reason) {
    case 'done':
      return `Snowpea finished: ${what}`;
    case 'error':
      return `Snowpea stopped with an error: ${what}`;
    case 'max_rounds':
      return `Snowpea stopped at the round limit: ${what}`;
    case 'budget':
      return `Snowpea stopped at your budget: ${what}`;
    default:
      return undefined;
  }
}

function quote(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS - 1)}…` : line;
}
