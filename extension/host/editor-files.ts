import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readDiskFile, sha256Hex } from '../core/tools/disk-reader';
import type { FileReader, FileReadResult, FileWriter } from '../core/tools/types';
import { realPath } from './real-path';

/**
 * The open document of a file. The core passes real paths (symlinks resolved) while the editor
 * keeps the path the folder was opened by (a symlinked workspace, /tmp on macOS), so both are compared.
 */
function findOpenDocument(absPath: string): vscode.TextDocument | undefined {
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

/**
 * Writes go through the editor when the file is open there (so the user's view, undo stack
 * and the disk agree: the whole document is replaced, then saved); closed files go to disk.
 */
export function createEditorFileWriter(): FileWriter {
  return {
    async write(absPath: string, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
      const doc = findOpenDocument(absPath);
      if (doc) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), new TextDecoder().decode(bytes));
        if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor refused the edit to ${absPath}`);
        if (!(await doc.save())) throw new Error(`the editor could not save ${absPath}`);
        return;
      }
      await fs.mkdir(path.dirname(absPath), { recursive: true });
      await fs.writeFile(absPath, bytes, { signal });
    },
  };
}
