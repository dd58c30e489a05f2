import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentHost } from '../agent-host';
import type { ChatViewProvider } from '../view/chat-view';
import { showInfo, showWarning } from '../dialogs';

interface SessionPick extends vscode.QuickPickItem {
  id: string;
}

const DELETE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete Session' };

async function sessionItems(host: AgentHost): Promise<SessionPick[]> {
  return (await host.listSessions()).map((s) => ({
    id: s.id,
    label: s.title,
    description: `${s.rounds} round${s.rounds === 1 ? '' : 's'}`,
    detail: new Date(s.updated).toLocaleString(),
    buttons: [DELETE_BUTTON],
  }));
}

/** Stored sessions, newest first, each with a Delete button; resolves with the one picked. */
async function pickSession(host: AgentHost, chat: ChatViewProvider, placeholder: string): Promise<SessionPick | undefined> {
  const items = await sessionItems(host);
  if (!items.length) {
    void showInfo('Snowpea: no stored sessions yet.');
    return undefined;
  }
  const qp = vscode.window.createQuickPick<SessionPick>();
  qp.placeholder = placeholder;
  qp.matchOnDetail = true;
  qp.ignoreFocusOut = true; // the delete confirmation is a modal
  qp.items = items;
  return new Promise<SessionPick | undefined>((resolve) => {
    let picked: SessionPick | undefined;
    qp.onDidAccept(() => {
      picked = qp.selectedItems[0];
      qp.hide();
    });
    qp.onDidTriggerItemButton(async ({ item }) => {
      if (!(await confirmDelete(chat, item))) return;
      qp.items = qp.items.filter((i) => i.id !== item.id);
      if (!qp.items.length) qp.hide();
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(picked);
    });
    qp.show();
  });
}

/** Asks in a modal, then deletes; true when the session is gone. */
async function confirmDelete(chat: ChatViewProvider, s: SessionPick): Promise<boolean> {
  const answer = await showWarning(
    `Delete the Snowpea session "${s.label}"?`,
    { modal: true, detail: 'Its transcript, tool outputs, delegated subtasks and the images only it used are removed from state.db. This cannot be undone.' },
    'Delete',
  );
  if (answer !== 'Delete') return false;
  if (!(await chat.deleteSession(s.id))) void showWarning('Snowpea: that session was already deleted.');
  return true;
}

/** Snowpea: Resume Session... — pick a stored session and continue it in the chat (or delete sessions from the list). */
export async function resumeSession(host: AgentHost, chat: ChatViewProvider): Promise<void> {
  const picked = await pickSession(host, chat, 'Resume which session? (the trash button deletes one)');
  if (picked) await chat.resume(picked.id);
}

/** Snowpea: Delete Session... — pick a stored session, confirm, delete it. */
export async function deleteSession(host: AgentHost, chat: ChatViewProvider): Promise<void> {
  const picked = await pickSession(host, chat, 'Delete which session?');
  if (picked) await confirmDelete(chat, picked);
}

/** Snowpea: Export Session... — the current (or a picked) session as Markdown or JSON (every byte of every tool output). */
export async function exportSession(host: AgentHost, chat: ChatViewProvider): Promise<void> {
  const id = host.currentSession()?.id ?? (await pickSession(host, chat, 'Export which session?'))?.id;
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
  void showInfo(written ? `Snowpea: session exported to ${target.fsPath}` : 'Snowpea: export cancelled; nothing was written.');
}

/**
 * Snowpea: Select Model — the endpoint's /models list when it answers, else free text. Writes
 * snowpea.model.name (user settings); the chat's session then follows it, leaving a model picked
 * in the composer.
 */
export async function selectModel(host: AgentHost): Promise<void> {
  const names = await host.availableModels().catch(() => [] as string[]);
  const current = host.configuredModel();
  let name: string | undefined;
  if (names.length) {
    const picked = await vscode.window.showQuickPick([...names.map((n) => ({ label: n, description: n === current ? 'current' : undefined })), { label: 'Other…' }], { placeHolder: `Model (now ${current})` });
    name = picked?.label === 'Other…' ? await vscode.window.showInputBox({ prompt: 'Model name', value: current }) : picked?.label;
  } else {
    name = await vscode.window.showInputBox({ prompt: 'Model name (the endpoint did not list its models)', value: current });
  }
  if (!name) return;
  await vscode.workspace.getConfiguration('snowpea').update('model.name', name, vscode.ConfigurationTarget.Global);
  await host.pickModel({ model: null });
}
