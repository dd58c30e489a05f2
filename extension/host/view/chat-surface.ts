import * as vscode from 'vscode';
import { dispatch, parseWebviewMessage, ReadyQueue, type HandlerTable, type HostMessage, type WebviewMessage } from '../../protocol';
import { DisposableStore } from '../../core/conversation/emitter';
import type { Logger } from '../../core/log';
import type { AgentHost } from '../agent-host';
import { compactConversation } from '../chat/compact-command';
import { restoreCheckpoint } from '../checkpoints/checkpoint-commands';
import { insertCodeAtCursor } from './editor-actions';
import type { WorkspaceFileIndex } from '../workspace/workspace-files';
import { createNonce, renderWebviewHtml } from './webview-html';

/** Messages for the composer's draft (Attach File..., Attach Image...): not part of the session a replay rebuilds. */
const isForComposer = (m: HostMessage): boolean => m.type === 'composer.insert' || m.type === 'composer.attach';

/**
 * Loads the chat UI into a webview (the side bar's view or the editor tab's panel): the same
 * options, the same strict CSP with a fresh nonce, the same bundle.
 */
export function loadChatUi(webview: vscode.Webview, extensionUri: vscode.Uri): void {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(extensionUri, 'media')] };
  const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(dist, ...p)).toString();
  webview.html = renderWebviewHtml({
    cspSource: webview.cspSource,
    scriptUri: uri('webview.js'),
    styleUri: uri('webview.css'),
    codiconsUri: uri('codicons', 'codicon.css'),
    nonce: createNonce(),
    title: 'Snowpea',
  });
}

export interface ChatSurfaceDeps {
  extensionUri: vscode.Uri;
  host: AgentHost;
  log: Logger;
  /** Workspace files for the `@` popup, shared by every surface. */
  files: WorkspaceFileIndex;
  /** Replaces what every surface shows (a new chat, a resumed session, a rewind): they all show the one session. */
  resetAll(messages: HostMessage[]): void;
}

/**
 * One place the chat is shown: a webview and the messages waiting for it. Every surface shows the
 * window's one chat session (the AgentHost's), so a turn started in the side bar streams into the
 * editor tab too. Messages wait in a ready queue until the webview says `ready`; on every (re)load
 * the surface replays the session.
 */
export class ChatSurface implements vscode.Disposable {
  private webview?: vscode.Webview;
  private readonly queue = new ReadyQueue<HostMessage>((m) => this.webview?.postMessage(m), {
    onDeliveryError: (e) => this.d.log.warn(`webview delivery failed: ${(e as Error).message}`),
  });
  private readonly disposables = new DisposableStore();
  /** The current webview's listener: released when it goes away (VS Code may give a new one later). */
  private readonly webviewScope = this.disposables.add(new DisposableStore());

  private readonly handlers: HandlerTable<WebviewMessage, Promise<unknown> | void> = {
    ready: async () => {
      // The replay supersedes the session's queued messages; what was sent to the composer stays.
      const forComposer = this.queue.clear(isForComposer);
      for (const m of [...(await this.d.host.initMessages()), ...forComposer]) this.queue.post(m);
      this.queue.markReady();
    },
    send: (m) => this.d.host.send(m.text, m.images ?? [], m.delivery),
    'queue.edit': (m) => this.d.host.editQueued(m.id, m.text),
    'queue.remove': (m) => this.d.host.removeQueued(m.id),
    'queue.delivery': (m) => this.d.host.setQueuedDelivery(m.id, m.delivery),
    'queue.sendNow': (m) => this.d.host.sendQueuedNow(m.id),
    stop: () => this.d.host.stop(),
    'mode.set': (m) => this.d.host.setMode(m.mode),
    'agent.set': (m) => this.d.host.setAgent(m.name),
    'plan.approve': () => this.d.host.approvePlan(),
    newChat: async () => this.d.resetAll(await this.d.host.newChat()),
    'approval.reply': (m) => this.d.host.prompts.replyApproval(m.id, m.decision),
    'ask.reply': (m) => this.d.host.prompts.replyAsk(m.id, m.answer),
    'budget.reply': (m) => this.d.host.prompts.replyBudget(m.id, m.decision === 'raise' ? { decision: 'raise', ...(m.turn === undefined ? {} : { turn: m.turn }), ...(m.session === undefined ? {} : { session: m.session }) } : { decision: m.decision }),
    'changes.keep': (m) => this.d.host.edits.changes.keep(m.path),
    'changes.undo': (m) => this.d.host.edits.changes.undo(m.path),
    'changes.open': (m) => this.d.host.edits.changes.open(m.path),
    'changes.keepHunk': (m) => this.d.host.edits.changes.keepHunk(m.path, m.key),
    'changes.undoHunk': (m) => this.d.host.edits.changes.undoHunk(m.path, m.key),
    retry: () => this.d.host.retry(),
    history: async () => void (await vscode.commands.executeCommand('snowpea.resumeSession')),
    compact: (m) => compactConversation(this.d.host, this.d.log, m.focus),
    'checkpoint.restore': async (m) => {
      const replay = await restoreCheckpoint(this.d.host, this.d.log, m);
      if (replay.length) this.d.resetAll(replay);
    },
    runCommand: async (m) => void (await vscode.commands.executeCommand(m.command)),
    insertCode: (m) => insertCodeAtCursor(m.code, m.language),
    'files.query': async (m) => this.queue.post({ type: 'files.result', query: m.query, paths: await this.d.files.query(m.query) }),
    'models.list': async () => this.queue.post(await this.d.host.pickerModels()),
    'model.set': (m) => this.d.host.pickModel({ model: m.model }),
    'effort.set': (m) => this.d.host.pickModel({ effort: m.effort }),
  };

  constructor(private readonly d: ChatSurfaceDeps) {
    this.disposables.add(d.host.subscribe((m) => this.queue.post(m)));
  }

  /** Loads the chat UI into `webview`; messages queue until it says `ready`. */
  attach(webview: vscode.Webview): void {
    this.webviewScope.clear();
    this.webview = webview;
    this.queue.unready();
    loadChatUi(webview, this.d.extensionUri);
    this.webviewScope.add(webview.onDidReceiveMessage((raw) => this.receive(raw)));
  }

  /** The webview was hidden: without retainContextWhenHidden its document is gone, so queue until it says ready again. */
  suspend(): void {
    this.queue.unready();
  }

  /** The webview was disposed (a later `attach` may bring a new one). */
  detach(webview: vscode.Webview): void {
    if (this.webview !== webview) return;
    this.webview = undefined;
    this.queue.unready();
    this.webviewScope.clear();
  }

  /** Sends one message (queued until the webview is ready). */
  post(message: HostMessage): void {
    this.queue.post(message);
  }

  /** Replaces the session shown: queued session messages are dropped, a draft's inserts are kept. */
  reset(messages: HostMessage[]): void {
    const forComposer = this.queue.clear(isForComposer);
    for (const m of [...messages, ...forComposer]) this.queue.post(m);
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.d.log.warn(parsed.error);
      return;
    }
    try {
      await dispatch(this.handlers, parsed.msg, undefined);
    } catch (e) {
      this.d.log.error(`handling ${parsed.msg.type} failed: ${(e as Error).message}`);
    }
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
