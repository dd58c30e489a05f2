import * as vscode from 'vscode';
import type { ProblemEntry } from '../../core/input/mention-keywords';
import { codeOf, SEVERITY } from './diagnostic-fields';

/**
 * `@problems`: every diagnostic VS Code holds now (what the Problems panel lists: open files, and
 * whatever else the language services checked), each with its workspace-relative path. Files of
 * other schemes (an untitled buffer, a git view) are named by their URI.
 */
export function workspaceProblems(): ProblemEntry[] {
  const out: ProblemEntry[] = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    const path = uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1) : uri.toString(true);
    for (const d of diagnostics) {
      out.push({
        path,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: SEVERITY[d.severity],
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
        ...(codeOf(d.code) !== undefined ? { code: codeOf(d.code) } : {}),
      });
    }
  }
  return out;
}
