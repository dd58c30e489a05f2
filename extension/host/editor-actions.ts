import * as vscode from 'vscode';
import { MAX_FILE_RESULTS } from '../protocol';
import { fuzzyScore } from './fuzzy';

/** Insert a code block from the chat at the cursor of the active editor (a new untitled document when none). */
export async function insertCodeAtCursor(code: string, language?: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    const doc = await vscode.workspace.openTextDocument({ content: code, language: language || undefined });
    await vscode.window.showTextDocument(doc);
    return;
  }
  await editor.edit((b) => {
    for (const sel of editor.selections) b.replace(sel, code);
  });
}

/** `@` in the composer: workspace files (respecting files.exclude and .gitignore'd search excludes), best first. */
export async function queryWorkspaceFiles(query: string, token?: vscode.CancellationToken): Promise<string[]> {
  const uris = await vscode.workspace.findFiles('**/*', '{**/node_modules/**,**/.git/**}', 5000, token);
  const q = query.trim().toLowerCase();
  return uris
    .map((u) => vscode.workspace.asRelativePath(u, false))
    .map((p) => ({ p, s: fuzzyScore(p, q) }))
    .filter((x) => x.s >= 0)
    .sort((a, b) => b.s - a.s || a.p.localeCompare(b.p))
    .slice(0, MAX_FILE_RESULTS)
    .map((x) => x.p);
}
