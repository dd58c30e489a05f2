import * as vscode from 'vscode';
import type { HostMessage } from '../../protocol';
import { DisposableStore } from '../../core/conversation/emitter';
import type { Logger } from '../../core/log';
import type { AgentHost } from '../agent-host';
import { ChatSurface } from './chat-surface';
import { WorkspaceFileIndex } from '../workspace/workspace-files';

export const CHAT_VIEW_ID = 'snowpea.chat';
/** The editor tab's webview panel type (Snowpea: Open Chat in Editor). */
export const CHAT_PANEL_TYPE = 'snowpea.chatEditor';

/**
 * Where the chat is shown: the side bar's webview view and, on request, one editor tab
 * (Snowpea: Open Chat in Editor). Both are surfaces of the same session, so what one shows the
 * other shows too (a new chat, a resume or a rewind replaces both); composer inserts go to the
 * one the user looks at.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private readonly disposables = new DisposableStore();
  /** The current side bar view's listeners: released when VS Code disposes the view (it resolves a new one later). */
  private readonly viewScope = this.disposables.add(new DisposableStore());
  /** Workspace files for the `@` popup, listed on the first query. */
  private readonly files = this.disposables.add(new WorkspaceFileIndex());
  /** The side bar's surface: it outlives its views, so messages posted before the view resolves wait for it. */
  private readonly sidebar: ChatSurface;
  private view?: vscode.WebviewView;
  private editor?: { panel: vscode.WebviewPanel; surface: ChatSurface };

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: AgentHost,
    private readonly log: Logger,
  ) {
    this.sidebar = this.disposables.add(this.newSurface());
  }

  private newSurface(): ChatSurface {
    return new ChatSurface({ extensionUri: this.extensionUri, host: this.host, log: this.log, files: this.files, resetAll: (m) => this.resetAll(m) });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.viewScope.clear();
    this.view = view;
    this.sidebar.attach(view.webview);
    this.viewScope.add(view.onDidChangeVisibility(() => !view.visible && this.sidebar.suspend()));
    this.viewScope.add(
      view.onDidDispose(() => {
        if (this.view !== view) return;
        this.view = undefined;
        this.sidebar.detach(view.webview);
        this.viewScope.clear();
      }),
    );
  }

  /** Snowpea: Open Chat in Editor: the chat in an editor tab (one at a time; a second call reveals it). */
  openInEditor(): void {
    if (this.editor) {
      this.editor.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(CHAT_PANEL_TYPE, 'Snowpea Chat', vscode.ViewColumn.Active, {});
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'snowpea.svg');
    const surface = this.newSurface();
    const editor = { panel, surface };
    this.editor = editor;
    surface.attach(panel.webview);
    const scope = new DisposableStore();
    scope.add(panel.onDidChangeViewState(() => !panel.visible && surface.suspend()));
    scope.add(
      panel.onDidDispose(() => {
        scope.dispose();
        surface.dispose();
        if (this.editor === editor) this.editor = undefined;
      }),
    );
  }

  /** Every surface shows `messages` in place of what it showed. */
  private resetAll(messages: HostMessage[]): void {
    this.sidebar.reset(messages);
    this.editor?.surface.reset(messages);
  }

  /** The surface the user looks at, shown: the editor tab when it is visible, else the side bar's view. */
  private async shown(): Promise<ChatSurface> {
    if (this.editor?.panel.visible) {
      this.editor.panel.reveal();
      return this.editor.surface;
    }
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    return this.sidebar;
  }

  /** Shows the chat and appends text to the composer's draft. */
  async insertIntoComposer(text: string): Promise<void> {
    (await this.shown()).post({ type: 'composer.insert', text });
  }

  /** Shows the chat and adds a picked image to the composer as a thumbnail. */
  async attachToComposer(image: { name: string; mime: string; size: number; dataBase64?: string }): Promise<void> {
    (await this.shown()).post({ type: 'composer.attach', ...image });
  }

  /** Shows the chat with a stored session replayed in it. */
  async resume(id: string): Promise<void> {
    await this.shown();
    this.resetAll(await this.host.resume(id));
  }

  /** Deletes a stored session; when it is the one shown, the chat starts over. False when it was already gone. */
  async deleteSession(id: string): Promise<boolean> {
    const { deleted, reset } = await this.host.deleteSession(id);
    if (reset) this.resetAll(reset);
    return deleted;
  }

  /** Shows the chat and starts a new chat in it. */
  async newChat(): Promise<void> {
    await this.shown();
    this.resetAll(await this.host.newChat());
  }

  dispose(): void {
    this.editor?.panel.dispose();
    this.disposables.dispose();
  }
}
