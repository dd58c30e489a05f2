import * as vscode from 'vscode';
import { BEFORE_SCHEME } from './proposal-provider';

/**
 * The active editor's cursor as a diff's hunk commands read it: the document it belongs to (a
 * cursor in the diff's read-only left side belongs to the diff's right side) and which side
 * ('old' on the left, 'new' otherwise). Undefined without an active editor.
 */
export function cursorInDiff(): { editor: vscode.TextEditor; uri: vscode.Uri | undefined; side: 'old' | 'new' } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const uri = editor.document.uri;
  if (uri.scheme !== BEFORE_SCHEME) return { editor, uri, side: 'new' };
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const modified = input instanceof vscode.TabInputTextDiff && input.original.toString() === uri.toString() ? input.modified : undefined;
  return { editor, uri: modified, side: 'old' };
}
