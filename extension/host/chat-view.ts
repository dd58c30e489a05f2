import * as vscode from 'vscode';
import { dispatch, parseWebviewMessage, ReadyQueue, type HandlerTable, type HostMessage, type WebviewMessage } from '../protocol';
import { DisposableStore } from '../core/conversation/emitter';
import type { Logger } from '../core/log';
import type { AgentHost } from './agent-host';
import { compactConversation } from './compact-command';
import { restoreCheckpoint } from './checkpoint-commands';
import { insertCodeAtCursor } from './editor-actions';
import { WorkspaceFileIndex } from './workspace-files';
import { createNonce, renderWebviewHtml } from './webview-html';

export const CHAT_VIEW_ID = 'snowpea.chat';

/** Messages for the composer's draft (Attach File..., Attach Image...): not part of the session a replay rebuilds. */
const isForComposer = (m: HostMessage): boolean => m.type === 'composer.insert' || m.type === 'composer.attach';

/**
 * The sidebar chat: a React webview under a strict CSP. Messages to it wait in a ready queue
 * until the webview says `ready`; on every (re)load the host replays the session.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view?: vscode.WebviewView;
  private readonly queue = new ReadyQueue<HostMessage>((m) => this.view?.webview.postMessage(m), {
    onDeliveryError: (e) => this.log.warn(`webview delivery failed: ${(e as Error).message}`),
  });
  /** What the provider holds for the window's lifetime; `viewScope` is among it. */
  private readonly disposables = new DisposableStore();
  /** The current webview view's listeners: released when VS Code disposes the view (it resolves a new one later). */
  private readonly viewScope = this.disposables.add(new DisposableStore());
  /** Workspace files for the `@` popup, listed on the first query. */
  private readonly files = new WorkspaceFileIndex();

  private readonly handlers: HandlerTable<WebviewMessage, Promise<unknown> | void> = {
    ready: async () => {
      // The replay supersedes the session's queued messages; what was sent to the composer stays.
      const forComposer = this.queue.clear(isForComposer);
      for (const m of [...(await this.host.initMessages()), ...forComposer]) this.queue.post(m);
      this.queue.markReady();
    },
    send: (m) => this.host.send(m.text, m.images ?? []),
    stop: () => this.host.stop(),
    newChat: async () => this.reset(await this.host.newChat()),
    'approval.reply': (m) => this.host.prompts.replyApproval(m.id, m.decision),
    'ask.reply': (m) => this.host.prompts.replyAsk(m.id, m.answer),
    'changes.keep': (m) => this.host.edits.changes.keep(m.path),
    'changes.undo': (m) => this.host.edits.changes.undo(m.path),
    'changes.open': (m) => this.host.edits.changes.open(m.path),
    retry: () => this.host.retry(),
    history: async () => void (await vscode.commands.executeCommand('snowpea.resumeSession')),
    compact: (m) => compactConversation(this.host, this.log, m.focus),
    'checkpoint.restore': async (m) => {
      const replay = await restoreCheckpoint(this.host, this.log, m);
      if (replay.length) this.reset(replay);
    },
    runCommand: async (m) => void (await vscode.commands.executeCommand(m.command)),
    insertCode: (m) => insertCodeAtCursor(m.code, m.language),
    'files.query': async (m) => this.queue.post({ type: 'files.result', query: m.query, paths: await this.files.query(m.query) }),
  };

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: AgentHost,
    private readonly log: Logger,
  ) {
    this.disposables.add(host.subscribe((m) => this.queue.post(m)));
    this.disposables.add(this.files);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.viewScope.clear();
    this.view = view;
    this.queue.unready();
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')] };
    const uri = (...p: string[]) => view.webview.asWebviewUri(vscode.Uri.joinPath(dist, ...p)).toString();
    view.webview.html = renderWebviewHtml({
      cspSource: view.webview.cspSource,
      scriptUri: uri('webview.js'),
      styleUri: uri('webview.css'),
      codiconsUri: uri('codicons', 'codicon.css'),
      nonce: createNonce(),
      title: 'Snowpea',
    });
    this.viewScope.add(view.webview.onDidReceiveMessage((raw) => this.receive(raw)));
    // A hidden view's webview is gone (no retainContextWhenHidden): queue until it says ready again.
    this.viewScope.add(view.onDidChangeVisibility(() => !view.visible && this.queue.unready()));
    this.viewScope.add(
      view.onDidDispose(() => {
        if (this.view !== view) return;
        this.view = undefined;
        this.queue.unready();
        this.viewScope.clear();
      }),
    );
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(parsed.error);
      return;
    }
    try {
      await dispatch(this.handlers, parsed.msg, undefined);
    } catch (e) {
      this.log.error(`handling ${parsed.msg.type} failed: ${(e as Error).message}`);
    }
  }

  private reset(messages: HostMessage[]): void {
    const forComposer = this.queue.clear(isForComposer);
    for (const m of [...messages, ...forComposer]) this.queue.post(m);
  }

  /** Shows the chat view and appends text to the composer's draft. */
  async insertIntoComposer(text: string): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    this.queue.post({ type: 'composer.insert', text });
  }

  /** Shows the chat view and adds a picked image to the composer as a thumbnail. */
  async attachToComposer(image: { name: string; mime: string; size: number; dataBase64?: string }): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    this.queue.post({ type: 'composer.attach', ...image });
  }

  /** Shows the chat view with a stored session replayed in it. */
  async resume(id: string): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    this.reset(await this.host.resume(id));
  }

  /** Deletes a stored session; when it is the one shown, the chat starts over. False when it was already gone. */
  async deleteSession(id: string): Promise<boolean> {
    const { deleted, reset } = await this.host.deleteSession(id);
    if (reset) this.reset(reset);
    return deleted;
  }

  /** Shows the chat view and starts a new chat in it. */
  async newChat(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    this.reset(await this.host.newChat());
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
