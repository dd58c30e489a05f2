import * as vscode from 'vscode';
import { MAX_FILE_RESULTS } from '../../protocol';
import { fuzzyScore } from './fuzzy';

/** Most files the index holds (a larger workspace is ranked on its first this many). */
const MAX_INDEXED = 100_000;
const SKIPPED = /(^|\/)(node_modules|\.git)\//;

/**
 * The workspace's files for the composer's `@` popup: listed once on the first query (files.exclude
 * honoured, node_modules and .git left out), kept current by a file watcher, and ranked in memory
 * on every keystroke, so a file deep in a large repository is found as easily as one at the top.
 */
export class WorkspaceFileIndex implements vscode.Disposable {
  private files?: Promise<Set<string>>;
  private subs: vscode.Disposable[] = [];

  /** Workspace-relative paths matching `query` (fuzzy), best first. */
  async query(query: string): Promise<string[]> {
    this.files ??= this.list();
    const files = await this.files;
    const q = query.trim().toLowerCase();
    const ranked: Array<{ p: string; s: number }> = [];
    for (const p of files) {
      const s = fuzzyScore(p, q);
      if (s >= 0) ranked.push({ p, s });
    }
    return ranked
      .sort((a, b) => b.s - a.s || a.p.localeCompare(b.p))
      .slice(0, MAX_FILE_RESULTS)
      .map((x) => x.p);
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    this.subs = [];
  }

  /** Lists the files and starts following creations and deletions (on the first query, not at activation). */
  private async list(): Promise<Set<string>> {
    this.dispose();
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const add = (uri: vscode.Uri) => void this.files?.then((s) => this.keep(uri) && s.size < MAX_INDEXED && s.add(this.rel(uri)));
    const remove = (uri: vscode.Uri) =>
      void this.files?.then((s) => {
        const rel = this.rel(uri);
        if (s.delete(rel)) return;
        // Not a listed file: a deleted folder takes its files with it (one scan, not one per deleted file).
        for (const p of s) if (p.startsWith(`${rel}/`)) s.delete(p);
      });
    this.subs = [watcher, watcher.onDidCreate(add), watcher.onDidDelete(remove), vscode.workspace.onDidChangeWorkspaceFolders(() => (this.files = undefined))];
    // No exclude argument: VS Code applies files.exclude (an exclude pattern would replace it).
    const uris = await vscode.workspace.findFiles('**/*', undefined, MAX_INDEXED);
    return new Set(uris.filter((u) => this.keep(u)).map((u) => this.rel(u)));
  }

  /** Workspace-relative; `folder/path` in a multi-root workspace (as the tools resolve it). */
  private rel(uri: vscode.Uri): string {
    return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  }

  private keep(uri: vscode.Uri): boolean {
    return uri.scheme === 'file' && !SKIPPED.test(this.rel(uri));
  }
}
