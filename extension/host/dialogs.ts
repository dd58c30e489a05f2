/**
 * The host's one door to VS Code's notifications and modal dialogs. Their text often holds what a
 * repository or a model chose (file names in a restore, an endpoint from workspace settings, an MCP
 * server's command, an error a server sent), and VS Code shows it as plain text: a right-to-left
 * override reorders a file name, a zero-width space hides a difference. So every message and detail
 * passes escapeHidden (extension/protocol/hidden-chars.ts, the CLI's escaper too): each hidden
 * character shows as `\u{202e}`, line breaks and tabs kept. test/unit/architecture/dialogs.test.ts
 * keeps every other host file from calling vscode.window.show*Message itself (red team N2).
 */
import * as vscode from 'vscode';
import { escapeHidden } from '../core/text/hidden-chars';

const keepLines = (c: string) => c === '\n' || c === '\t';

/** `s` as a dialog may show it. */
export function dialogText(s: string): string {
  return escapeHidden(s, keepLines);
}

type Rest<T extends string> = [options: vscode.MessageOptions, ...items: T[]] | T[];

function safe<T extends string>(rest: Rest<T>): Rest<T> {
  const [first, ...others] = rest;
  if (first && typeof first === 'object') {
    const o = first as vscode.MessageOptions;
    return [{ ...o, ...(o.detail !== undefined ? { detail: dialogText(o.detail) } : {}) }, ...(others as T[])];
  }
  return rest;
}

export function showWarning<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(dialogText(message), ...(safe(rest) as [vscode.MessageOptions, ...T[]]));
}

export function showInfo<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(dialogText(message), ...(safe(rest) as [vscode.MessageOptions, ...T[]]));
}

export function showError<T extends string>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(dialogText(message), ...(safe(rest) as [vscode.MessageOptions, ...T[]]));
}
