import * as vscode from 'vscode';
import type { ProblemSeverity } from '../../core/tools/problems-introduced';

/** A VS Code diagnostic's severity as the core names it (`@problems`, the problems an edit introduced). */
export const SEVERITY: Record<vscode.DiagnosticSeverity, ProblemSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** A diagnostic's code as text (a code with a link gives its value). */
export function codeOf(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}
