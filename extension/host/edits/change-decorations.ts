import * as vscode from 'vscode';
import { changedLines } from '../../core/tools/core/proposal';
import { realPath } from '../workspace/real-path';

/** Files larger than this get no line marks (the diff would cost more than the mark is worth). */
const MAX_TEXT = 2_000_000;

/**
 * Marks the lines the agent changed this turn in every editor showing such a file (a bar in the
 * gutter's edge, a tint and the overview ruler); the marks follow later typing and go on Keep or Undo.
 */
export class ChangeDecorations implements vscode.Disposable {
  private readonly type = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    borderColor: new vscode.ThemeColor('editorGutter.addedBackground'),
    borderStyle: 'solid',
    borderWidth: '0 0 0 3px',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly disposables: vscode.Disposable[];

  /** `beforeOf`: the text a file had before the turn's first edit of it, undefined for files not changed. */
  constructor(private readonly beforeOf: (absPath: string) => string | undefined) {
    this.disposables = [
      this.type,
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.scheme === 'file' && this.refresh(e.document)),
    ];
  }

  /** Redraws the marks of every visible editor (or only those showing `doc`). */
  refresh(doc?: vscode.TextDocument): void {
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.scheme !== 'file' || (doc && editor.document !== doc)) continue;
      const before = this.beforeOf(editor.document.uri.fsPath) ?? this.beforeOf(realPath(editor.document.uri.fsPath));
      const text = editor.document.getText();
      if (before === undefined || text.length > MAX_TEXT || before.length > MAX_TEXT) {
        editor.setDecorations(this.type, []);
        continue;
      }
      const hover = new vscode.MarkdownString('Changed by Snowpea this turn: **Keep** or **Undo** it in the chat, or this hunk with the editor title\'s Keep/Undo Hunk at Cursor.');
      editor.setDecorations(
        this.type,
        changedLines(before, text).map((line) => ({ range: new vscode.Range(line, 0, line, 0), hoverMessage: hover })),
      );
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
