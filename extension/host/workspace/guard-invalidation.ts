import * as vscode from 'vscode';
import { realPath } from './real-path';

/**
 * An edit in the editor or a change on disk clears the repeat guard's record for that file,
 * so the next read_file returns content instead of an "unchanged" stub.
 */
export function watchForGuardInvalidation(invalidate: (realPath: string) => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const onUri = (uri: vscode.Uri) => uri.scheme === 'file' && invalidate(realPath(uri.fsPath));
  return vscode.Disposable.from(
    watcher,
    watcher.onDidChange(onUri),
    watcher.onDidCreate(onUri),
    watcher.onDidDelete(onUri),
    vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length && onUri(e.document.uri)),
  );
}
