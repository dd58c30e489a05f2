import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Problem, ProblemSeverity, ProblemWatch } from '../core/tools/problems-introduced';
import { realPath } from './real-path';
import { DiagnosticChanges } from './diagnostic-changes';

/** After a write, the wait ends this long after the write when the file's diagnostics did not change (a file that stays clean gets no event). */
const NO_CHANGE_MS = 2000;
/** A file that was not open is opened first, and its language services are given this long at most to report the "before" problems. */
const BASELINE_NO_CHANGE_MS = 1000;

const SEVERITY: Record<vscode.DiagnosticSeverity, ProblemSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** The core passes real paths while the editor keeps the path the folder was opened by: compare both. */
function sameFile(uri: vscode.Uri, absPath: string): boolean {
  if (uri.scheme !== 'file') return false;
  return uri.fsPath === absPath || (path.basename(uri.fsPath) === path.basename(absPath) && realPath(uri.fsPath) === absPath);
}

function openDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && sameFile(d.uri, absPath));
}

function tabOf(absPath: string): vscode.Tab | undefined {
  for (const g of vscode.window.tabGroups.all) {
    for (const t of g.tabs) {
      const uris = t.input instanceof vscode.TabInputText ? [t.input.uri] : t.input instanceof vscode.TabInputTextDiff ? [t.input.original, t.input.modified] : [];
      if (uris.some((u) => sameFile(u, absPath))) return t;
    }
  }
  return undefined;
}

/**
 * VS Code's TypeScript service and language-server clients check only files shown in a tab: opens one
 * in the background (not focused; shown only when its editor group was empty). The returned function
 * closes it again unless it holds unsaved changes by then.
 */
async function openBackgroundTab(uri: vscode.Uri, absPath: string): Promise<() => void> {
  const options: vscode.TextDocumentShowOptions & { background: boolean } = { background: true, preserveFocus: true, preview: false };
  await vscode.commands.executeCommand('vscode.open', uri, options);
  return () => {
    const tab = tabOf(absPath);
    if (tab && !tab.isDirty) void Promise.resolve(vscode.window.tabGroups.close(tab, true)).catch(() => undefined);
  };
}

function codeOf(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

function problemsOf(uri: vscode.Uri): Problem[] {
  return vscode.languages.getDiagnostics(uri).map((d) => ({
    line: d.range.start.line + 1,
    severity: SEVERITY[d.severity],
    source: d.source,
    code: codeOf(d.code),
    message: d.message,
  }));
}

/**
 * The ToolContext's watchProblems in VS Code: the file's problems now (a file not shown in a tab is
 * opened in a background tab and its language services are given a moment), then, after the write,
 * its problems once the diagnostics settle. Undefined for plain text and files the editor cannot open.
 */
export async function watchEditProblems(absPath: string, signal: AbortSignal): Promise<ProblemWatch | undefined> {
  const changes = new DiagnosticChanges((u) => sameFile(u, absPath));
  const uri = vscode.Uri.file(absPath);
  let closeTab = () => {};
  const dispose = () => {
    changes.dispose();
    closeTab();
  };
  try {
    let doc = openDocument(absPath);
    if (!doc && fs.existsSync(absPath)) doc = await vscode.workspace.openTextDocument(uri);
    if (doc?.languageId === 'plaintext') {
      dispose();
      return undefined;
    }
    if (doc && !tabOf(absPath)) {
      const opened = Date.now();
      closeTab = await openBackgroundTab(doc.uri, absPath);
      await changes.settle(opened, BASELINE_NO_CHANGE_MS, signal);
    }
    const before = doc ? problemsOf(doc.uri) : [];
    const writeStart = Date.now();
    return {
      before,
      async after() {
        try {
          doc ??= openDocument(absPath) ?? (await vscode.workspace.openTextDocument(uri));
          if (doc.languageId === 'plaintext') return [];
          if (!tabOf(absPath)) closeTab = await openBackgroundTab(doc.uri, absPath);
        } catch {
          return []; // binary or too large for the editor: no language service checks it
        }
        await changes.settle(writeStart, NO_CHANGE_MS, signal);
        return problemsOf(doc.uri);
      },
      dispose,
    };
  } catch {
    dispose();
    return undefined;
  }
}
