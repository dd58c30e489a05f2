import * as vscode from 'vscode';
import type { HostMessage } from '../../protocol';
import type { AgentHost } from '../agent-host';

function k(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

/** The chat's model (the composer's pick, else model.name) and the last round's context meter (input tokens, how many were cached). */
export function createStatusBar(host: AgentHost): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('snowpea.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Snowpea';
  item.command = 'snowpea.focusChat';
  let last: string | undefined;
  const show = (meter?: string) => {
    last = meter;
    const model = host.currentSettings()['model.name'];
    item.text = `$(comment-discussion) ${model}${meter ? ` · ${meter}` : ''}`;
    item.tooltip = meter ? `Snowpea: ${model}; last round ${meter}` : `Snowpea: ${model}`;
    item.show();
  };
  show();
  const sub = host.subscribe((m: HostMessage) => {
    if (m.type === 'event' && m.event.type === 'usage') {
      const u = m.event.usage;
      show(`${u.estimated ? '~' : ''}${k(u.promptTokens)} in${u.cachedTokens ? ` (${k(u.cachedTokens)} cached)` : ''}`);
    } else if (m.type === 'init') show();
    // The model picked in the composer: the same session, so its last round's meter stays.
    else if (m.type === 'header') show(last);
  });
  const cfg = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('snowpea.model') && show(last));
  return vscode.Disposable.from(item, sub, cfg);
}
