/**
 * One hunk's Undo written back: to the disk through Undo's own write (never through a link), or,
 * when the file's open document holds unsaved edits, into that document only (its text reaches the
 * disk when the user saves it, as the agent's own writes do).
 */
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { decodeText } from '../../core/tools/text';
import { changedRange, findOpenDocument } from '../workspace/editor-files';
import { undoWrite } from './undo-write';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

const hasBom = (b: Uint8Array | null) => !!b && b.length >= 3 && UTF8_BOM.every((x, i) => b[i] === x);

/** `text` as UTF-8, with a byte order mark when `like` had one. */
export function encodeLike(text: string, like: Uint8Array | null): Uint8Array {
  const body = new TextEncoder().encode(text);
  if (!hasBom(like)) return body;
  const out = new Uint8Array(body.length + 3);
  out.set(UTF8_BOM);
  out.set(body, 3);
  return out;
}

/** Hunks are rewritten as UTF-8: bytes that are not UTF-8 text get a clear refusal instead. */
export function checkUtf8(bytes: Uint8Array | null, name: string): void {
  if (bytes && decodeText(bytes).encodingNote) {
    throw new Error(`${name} is not UTF-8 text, so Snowpea does not rewrite it hunk by hunk; Keep or Undo the whole file`);
  }
}

/** The file's text as the list compares it: an open document with unsaved edits, else the disk (empty when gone). */
export async function currentText(abs: string): Promise<{ text: string; bytes: Uint8Array | null; unsavedDoc?: vscode.TextDocument }> {
  const doc = findOpenDocument(abs);
  let bytes: Uint8Array | null = null;
  try {
    bytes = await fs.readFile(abs);
  } catch {
    /* gone since: compared as empty */
  }
  if (doc?.isDirty) return { text: doc.getText(), bytes, unsavedDoc: doc };
  return { text: bytes ? decodeText(bytes).text : '', bytes };
}

/** Puts `text` where `currentText` read the file from. */
export async function putText(abs: string, folder: string, text: string, from: Awaited<ReturnType<typeof currentText>>): Promise<void> {
  if (from.unsavedDoc) {
    const change = changedRange(from.unsavedDoc, text);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(from.unsavedDoc.uri, change.range, change.text);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the editor refused the edit');
    return;
  }
  await undoWrite(abs, encodeLike(text, from.bytes), folder);
}
