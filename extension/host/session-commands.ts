import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentHost } from './agent-host';
import type { ChatViewProvider } from './chat-view';

interface SessionPick extends vscode.QuickPickItem {
  id: string;
}

async function pickSession(host: AgentHost, placeHolder: string): Promise<string | undefined> {
  const sessions = await host.listSessions();
  if (!sessions.length) {
    void vscode.window.showInformationMessage('Snowpea: no stored sessions yet.');
    return undefined;
  }
  const items: SessionPick[] = sessions.map((s) => ({
    id: s.id,
    label: s.title,
    description: `${s.rounds} round${s.rounds === 1 ? '' : 's'}`,
    detail: new Date(s.updated).toLocaleString(),
  }));
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.id;
}

/** Snowpea: Resume Session... — pick a stored session and continue it in the chat. */
export async function resumeSession(host: AgentHost, chat: ChatViewProvider): Promise<void> {
  const id = await pickSession(host, 'Resume which session?');
  if (id) await chat.resume(id);
}

/** Snowpea: Export Session... — the current (or a picked) session as Markdown or JSON (every byte of every tool output). */
export async function exportSession(host: AgentHost): Promise<void> {
  const id = host.currentSession()?.id ?? (await pickSession(host, 'Export which session?'));
  if (!id) return;
  const format = (await vscode.window.showQuickPick(['md', 'json'], { placeHolder: 'Export as' })) as 'md' | 'json' | undefined;
  if (!format) return;
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir()), `snowpea-session-${id.slice(0, 8)}.${format}`),
    filters: format === 'md' ? { Markdown: ['md'] } : { JSON: ['json'] },
  });
  if (!target) return;
  const written = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Snowpea: exporting session', cancellable: true },
    async (_progress, token) => {
      const text = await host.exportSession(id, format);
      // Cancelled while the export was read: nothing is written.
      if (token.isCancellationRequested) return false;
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
      return true;
    },
  );
  void vscode.window.showInformationMessage(written ? `Snowpea: session exported to ${target.fsPath}` : 'Snowpea: export cancelled; nothing was written.');
}

/** Snowpea: Select Model — the endpoint's /models list when it answers, else free text. Writes snowpea.model.name. */
export async function selectModel(host: AgentHost): Promise<void> {
  const names = await host.availableModels().catch(() => [] as string[]);
  const current = host.currentSettings()['model.name'];
  let name: string | undefined;
  if (names.length) {
    const picked = await vscode.window.showQuickPick([...names.map((n) => ({ label: n, description: n === current ? 'current' : undefined })), { label: 'Other…' }], { placeHolder: `Model (now ${current})` });
    name = picked?.label === 'Other…' ? await vscode.window.showInputBox({ prompt: 'Model name', value: current }) : picked?.label;
  } else {
    name = await vscode.window.showInputBox({ prompt: 'Model name (the endpoint did not list its models)', value: current });
  }
  if (name) await vscode.workspace.getConfiguration('snowpea').update('model.name', name, vscode.ConfigurationTarget.Global);
}
