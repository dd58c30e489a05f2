import * as vscode from 'vscode';

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
