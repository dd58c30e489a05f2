import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { sha256Hex } from '../core/tools/disk-reader';
import type { FileReader, FileReadResult } from '../core/tools/types';

/**
 * read_file inside VS Code reads what the editor shows: an open document's current text,
 * unsaved edits included; the repeat guard hashes exactly that text. Closed files come from disk.
 */
export function createEditorFileReader(): FileReader {
  return {
    async read(absPath: string): Promise<FileReadResult> {
      const doc = findOpenDocument(absPath);
      if (doc) {
        const bytes = new TextEncoder().encode(doc.getText());
        return { bytes, sha256: sha256Hex(bytes), fromEditor: true };
      }
      const bytes = new Uint8Array(await fs.readFile(absPath));
      return { bytes, sha256: sha256Hex(bytes), fromEditor: false };
    },
  };
}

function findOpenDocument(absPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && !d.isClosed && d.uri.fsPath === absPath);
}
