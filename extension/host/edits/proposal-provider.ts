import * as vscode from 'vscode';

/** Read-only text Snowpea shows on the left of a diff: a file's text before a proposal or before the turn's edits. */
export const BEFORE_SCHEME = 'snowpea-before';
/** The editable right side of a review: an in-memory file the user can type in before accepting. */
export const PROPOSAL_SCHEME = 'snowpea-proposal';

/** A URI under `scheme` for `key`: the file's path as the user reads it (the editor's language, title and breadcrumbs follow it), the key as its query. */
export function keyedUri(scheme: string, key: string, display: string): vscode.Uri {
  return vscode.Uri.from({ scheme, path: `/${display.replace(/\\/g, '/').replace(/^\/+/, '')}`, query: key });
}

const keyOf = (uri: vscode.Uri) => uri.query;

/** Serves BEFORE_SCHEME documents from texts kept by key; nothing there can be edited. */
export class BeforeTexts implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(key: string, display: string, text: string): vscode.Uri {
    this.texts.set(key, text);
    const uri = keyedUri(BEFORE_SCHEME, key, display);
    this.changed.fire(uri);
    return uri;
  }

  delete(key: string): void {
    this.texts.delete(key);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(keyOf(uri)) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * The proposals under review as in-memory files: a real document the user types in (saving keeps
 * the text here, never on disk). Only files a review created exist; nothing else can be made.
 */
export class ProposalFiles implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { path: string; bytes: Uint8Array; mtime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  create(key: string, display: string, text: string): vscode.Uri {
    const uri = keyedUri(PROPOSAL_SCHEME, key, display);
    this.files.set(key, { path: uri.path, bytes: new TextEncoder().encode(text), mtime: Date.now() });
    return uri;
  }

  delete(uri: vscode.Uri): void {
    this.files.delete(keyOf(uri));
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    // The folders above a proposal (the breadcrumbs ask for them) exist as long as it does.
    const dir = uri.path === '/' ? '/' : `${uri.path}/`;
    if ([...this.files.values()].some((f) => f.path.startsWith(dir))) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const f = this.file(uri);
    return { type: vscode.FileType.File, ctime: f.mtime, mtime: f.mtime, size: f.bytes.length };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.file(uri).bytes;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const f = this.file(uri);
    this.files.set(keyOf(uri), { path: f.path, bytes: content, mtime: Date.now() });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  private file(uri: vscode.Uri): { path: string; bytes: Uint8Array; mtime: number } {
    const f = this.files.get(keyOf(uri));
    if (!f || f.path !== uri.path) throw vscode.FileSystemError.FileNotFound(uri);
    return f;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
