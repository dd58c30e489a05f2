import * as vscode from 'vscode';
import { readDiskFile, sha256Hex } from '../../core/tools/disk-reader';
import { writeNoFollow } from '../../core/tools/no-follow-write';
import type { FileReader, FileReadResult, FileWriter } from '../../core/tools/types';
import { realPath } from './real-path';

/**
 * The open document of a file. The core passes real paths (symlinks resolved) while the editor
 * keeps the path the folder was opened by (a symlinked workspace, /tmp on macOS), so both are compared.
 */
export function findOpenDocument(absPath: string): vscode.TextDocument | undefined {
  const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && !d.isClosed);
  return docs.find((d) => d.uri.fsPath === absPath) ?? docs.find((d) => realPath(d.uri.fsPath) === absPath);
}

/**
 * read_file inside VS Code reads what the editor shows: an open document's current text,
 * unsaved edits included; the repeat guard hashes exactly that text. Closed files come from disk.
 */
export function createEditorFileReader(): FileReader {
  return {
    async read(absPath: string, signal?: AbortSignal): Promise<FileReadResult> {
      const doc = findOpenDocument(absPath);
      if (doc) {
        const bytes = new TextEncoder().encode(doc.getText());
        return { bytes, sha256: sha256Hex(bytes), fromEditor: true };
      }
      const bytes = await readDiskFile(absPath, signal);
      return { bytes, sha256: sha256Hex(bytes), fromEditor: false };
    },
  };
}

/** The smallest single range of `doc` to replace for it to read `text` (cursors and marks elsewhere stay put). */
export function changedRange(doc: vscode.TextDocument, text: string): { range: vscode.Range; text: string } {
  const old = doc.getText();
  let start = 0;
  const max = Math.min(old.length, text.length);
  while (start < max && old.charCodeAt(start) === text.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && old.charCodeAt(old.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
  return { range: new vscode.Range(doc.positionAt(start), doc.positionAt(old.length - end)), text: text.slice(start, text.length - end) };
}

/**
 * Writes go through the editor when the file is open there, as a WorkspaceEdit (the user's view,
 * undo stack and the disk agree). A document without unsaved edits is saved after; one that holds
 * the user's unsaved edits is left unsaved, so their text never reaches the disk without them.
 * The document's change event tells the repeat guard. Closed files go to disk.
 */
export function createEditorFileWriter(): FileWriter {
  return {
    async write(absPath: string, bytes: Uint8Array, signal?: AbortSignal, opts?: { created?: boolean }): Promise<void> {
      const doc = findOpenDocument(absPath);
      if (doc) {
        const userUnsaved = doc.isDirty;
        const change = changedRange(doc, new TextDecoder().decode(bytes));
        const edit = new vscode.WorkspaceEdit();
        edit.replace(doc.uri, change.range, change.text);
        if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor refused the edit to ${absPath}`);
        // save() also answers false when something else saved the document first: only still-unsaved text is a failure.
        if (!userUnsaved && !(await doc.save()) && doc.isDirty) throw new Error(`the editor could not save ${absPath}`);
        return;
      }
      await writeNoFollow(absPath, bytes, { created: opts?.created, signal });
    },
  };
}
