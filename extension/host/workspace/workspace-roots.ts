import * as vscode from 'vscode';
import { setWorkspaceRoots } from '../../core/tools/roots';

/**
 * Tells the core the window's workspace folders (a multi-root workspace's every folder, the first
 * being the primary one relative paths resolve in), now and whenever folders are added or removed.
 */
export function trackWorkspaceRoots(): vscode.Disposable {
  const register = () => setWorkspaceRoots((vscode.workspace.workspaceFolders ?? []).map((f) => ({ path: f.uri.fsPath, name: f.name })));
  let forget = register();
  const sub = vscode.workspace.onDidChangeWorkspaceFolders(() => {
    forget();
    forget = register();
  });
  return new vscode.Disposable(() => {
    sub.dispose();
    forget();
  });
}
