import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hunkAt, HunkGoneError, keepHunk, lineText, splitHunks, undoHunk, type Hunk } from '../../core/text/hunks';
import { lineCounts } from '../../core/tools/core/proposal';
import { decodeText } from '../../core/tools/text';
import type { ChangedFile, ChangedHunk, HostMessage } from '../../protocol';
import { findOpenDocument } from '../workspace/editor-files';
import { realPath } from '../workspace/real-path';
import { checkUtf8, currentText, encodeLike, putText } from './hunk-writes';
import { cursorInDiff } from './cursor-side';
import type { BeforeTexts } from './proposal-provider';
import { realFolder, undoWrite } from './undo-write';
import { showError, showInfo } from '../dialogs';

interface Tracked {
  abs: string;
  display: string;
  /** The file's exact bytes before the turn's first agent edit; null: the agent created it. */
  before: Uint8Array | null;
  /** The real folder the agent wrote it in: Undo writes there or nowhere. */
  folder: string;
  /** The open document's text then, when it held unsaved edits (Undo puts them back). */
  unsaved?: string;
  /** The earlier text with the hunks the user kept taken in (set once one is): what is left to decide is measured against it. */
  base?: string;
  /** The left sides of the diffs opened for it, redrawn when a hunk is kept. */
  lefts: string[];
}

export interface TurnChangesDeps {
  post(msg: HostMessage): void;
  /** Tells the repeat guard the file changed. */
  invalidate(absPath: string): void;
  before: BeforeTexts;
  /** The changed files' marks in the editor need drawing again. */
  redraw(): void;
}

const textOf = (bytes: Uint8Array | null) => (bytes ? decodeText(bytes).text : '');
const baseOf = (t: Tracked) => t.base ?? textOf(t.before);

/** Files larger than this (in characters) are listed without hunks: Keep or Undo the whole file. */
const MAX_HUNK_TEXT = 1_000_000;
/** More hunks than this in a file: listed without them. */
const MAX_HUNKS = 200;
/** Lines shown of each side of a hunk in the list. */
const SHOWN_LINES = 12;

/**
 * The files a turn's auto-approved writes changed, with each file's bytes before the first of
 * them: listed in the chat after the turn for Keep (forget) or Undo (put the bytes back exactly,
 * delete a file the agent created). Reviewed writes are not listed: the user accepted them already.
 */
export class TurnChanges {
  private readonly files = new Map<string, Tracked>();
  private running = false;
  /** Diffs opened so far (each gets its own left-side document). */
  private opened = 0;

  constructor(
    private readonly deps: TurnChangesDeps,
    private readonly display: (absPath: string) => string,
  ) {}

  /** The text a changed file had before the turn, for the line marks; undefined for others. */
  beforeText(absPath: string): string | undefined {
    const t = this.files.get(absPath);
    return t ? baseOf(t) : undefined;
  }

  /** Before an agent write: keeps the file's bytes the first time the turn writes it. */
  async beforeWrite(absPath: string, reviewed: boolean): Promise<void> {
    if (reviewed || this.files.has(absPath)) return;
    let before: Uint8Array | null = null;
    try {
      before = await fs.readFile(absPath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const doc = findOpenDocument(absPath);
    const folder = (await realFolder(absPath)) ?? path.dirname(absPath);
    this.files.set(absPath, { abs: absPath, display: this.display(absPath), before, folder, lefts: [], ...(doc?.isDirty ? { unsaved: doc.getText() } : {}) });
    this.noteFiles();
  }

  afterWrite(): void {
    this.deps.redraw();
  }

  /** A new turn: what the last one changed and nobody undid is kept. */
  turnStarted(): void {
    this.running = true;
    if (this.files.size) this.forget([...this.files.values()]);
  }

  async turnEnded(): Promise<void> {
    this.running = false;
    this.deps.post(await this.listMessage());
  }

  /** For a chat that (re)loads: the list, when a finished turn left files to decide on. */
  async messages(): Promise<HostMessage[]> {
    return !this.running && this.files.size ? [await this.listMessage()] : [];
  }

  async keep(display?: string): Promise<void> {
    this.forget(this.pick(display));
    this.deps.post(await this.listMessage());
  }

  async undo(display?: string): Promise<void> {
    const picked = this.pick(display);
    const failed: string[] = [];
    for (const t of picked) {
      try {
        await this.restore(t);
      } catch (e) {
        failed.push(`${t.display} (${(e as Error).message})`);
      }
    }
    this.forget(picked.filter((t) => !failed.some((f) => f.startsWith(`${t.display} (`))));
    this.deps.post(await this.listMessage());
    if (failed.length) void showError(`Snowpea could not undo ${failed.join(', ')}.`);
  }

  /** Keeps one hunk of a listed file (`key` as listed): it leaves the list; the file does once nothing is left to decide. */
  async keepHunk(display: string, key: string): Promise<void> {
    await this.onHunk(display, async (t, now) => {
      t.base = keepHunk(baseOf(t), now.text, key);
      for (const left of t.lefts) this.deps.before.set(left, t.display, t.base);
      return t.base;
    });
  }

  /** Puts one hunk's old lines back (`key` as listed), leaving the file's other lines as they are. */
  async undoHunk(display: string, key: string): Promise<void> {
    await this.onHunk(display, async (t, now) => {
      const text = undoHunk(baseOf(t), now.text, key);
      await putText(t.abs, t.folder, text, now);
      this.deps.invalidate(t.abs);
      return text;
    });
  }

  /** The diff editor's (or the editor's) Keep or Undo Hunk at Cursor: the hunk under the active editor's cursor. */
  async hunkAtCursor(action: 'keep' | 'undo'): Promise<void> {
    const cursor = cursorInDiff();
    const uri = cursor?.uri;
    const t = uri?.scheme === 'file' ? (this.files.get(uri.fsPath) ?? this.files.get(realPath(uri.fsPath))) : undefined;
    if (!cursor || !t) {
      void showInfo('Snowpea: this editor shows no file the last turn changed; open one from the chat\'s list of changed files.');
      return;
    }
    if (t.before === null) {
      void showInfo(`Snowpea: ${t.display} was created this turn; Keep or Undo the whole file in the chat.`);
      return;
    }
    const hunk = hunkAt(splitHunks(baseOf(t), (await currentText(t.abs)).text), cursor.editor.selection.active.line, cursor.side);
    if (!hunk) {
      void showInfo(`Snowpea: the cursor is not on a change of ${t.display} left to decide; put it on a changed line.`);
      return;
    }
    await (action === 'keep' ? this.keepHunk(t.display, hunk.key) : this.undoHunk(t.display, hunk.key));
  }

  /** Runs `act` on the hunk; the file leaves the list when nothing is left to decide, and the list is sent again. */
  private async onHunk(display: string, act: (t: Tracked, now: Awaited<ReturnType<typeof currentText>>) => Promise<string>): Promise<void> {
    const t = this.pick(display)[0];
    if (!t) return;
    try {
      if (t.before === null) throw new Error(`Snowpea created ${t.display} this turn; Keep or Undo the whole file`);
      const now = await currentText(t.abs);
      checkUtf8(t.before, t.display);
      checkUtf8(now.unsavedDoc ? null : now.bytes, t.display);
      const after = await act(t, now);
      if (!splitHunks(baseOf(t), after).length) this.forget([t]);
      else this.deps.redraw();
    } catch (e) {
      if (e instanceof HunkGoneError) void showInfo(`Snowpea: ${e.message}; the list shows ${t.display} as it is now.`);
      else void showError(`Snowpea could not change ${t.display} (${(e as Error).message}).`);
    }
    this.deps.post(await this.listMessage());
  }

  /** The diff of a changed file: its text before the turn against the file now. */
  async open(display: string): Promise<void> {
    const t = this.pick(display)[0];
    if (!t) return;
    const key = `changes-${++this.opened}`;
    t.lefts.push(key);
    const left = this.deps.before.set(key, t.display, baseOf(t));
    const name = path.basename(t.abs);
    await vscode.commands.executeCommand('vscode.diff', left, vscode.Uri.file(t.abs), `${name} (before this turn ↔ now)`, { preview: true });
  }

  private pick(display?: string): Tracked[] {
    return [...this.files.values()].filter((t) => display === undefined || t.display === display);
  }

  private forget(list: Tracked[]): void {
    for (const t of list) this.files.delete(t.abs);
    this.noteFiles();
    this.deps.redraw();
  }

  /** The editor title's Keep/Undo Hunk at Cursor show on the files listed (`resourcePath in snowpea.changedFiles`). */
  private noteFiles(): void {
    const paths = [...this.files.keys()].flatMap((abs) => [abs, vscode.Uri.file(abs).path]);
    void vscode.commands.executeCommand('setContext', 'snowpea.changedFiles', [...new Set(paths)]);
  }

  /** Puts the file's earlier bytes back exactly (or deletes a file the agent created), never through a link; an open document follows. */
  private async restore(t: Tracked): Promise<void> {
    // Hunks kept: the file goes back to the earlier text with those taken in, not to the bytes before the turn.
    await undoWrite(t.abs, t.base === undefined ? t.before : encodeLike(t.base, t.before), t.folder);
    const doc = findOpenDocument(t.abs);
    if (doc && (doc.isDirty || t.unsaved !== undefined)) {
      // The disk is already right; the document returns to what it showed (unsaved edits included).
      const text = t.base ?? t.unsaved ?? textOf(t.before);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      await vscode.workspace.applyEdit(edit);
    }
    this.deps.invalidate(t.abs);
  }

  private async listMessage(): Promise<HostMessage> {
    const files: ChangedFile[] = [];
    for (const t of this.files.values()) {
      // Deleted since: listed against an empty file.
      const after = (await currentText(t.abs)).text;
      const before = baseOf(t);
      const hunks = this.listedHunks(t, before, after);
      files.push({ path: t.display, created: t.before === null, ...lineCounts(before, after), ...(hunks ? { hunks } : {}) });
    }
    return { type: 'changes.list', files };
  }

  /** The file's hunks for the list; none for a file the agent created, one not UTF-8, or one too large. */
  private listedHunks(t: Tracked, before: string, after: string): ChangedHunk[] | undefined {
    if (t.before === null || before.length > MAX_HUNK_TEXT || after.length > MAX_HUNK_TEXT) return undefined;
    if (decodeText(t.before).encodingNote) return undefined;
    const hunks = splitHunks(before, after);
    if (hunks.length > MAX_HUNKS) return undefined;
    return hunks.map((h) => shown(h));
  }
}

function shown(h: Hunk): ChangedHunk {
  const removed = h.removed.slice(0, SHOWN_LINES).map(lineText);
  const added = h.added.slice(0, SHOWN_LINES).map(lineText);
  return { key: h.key, line: h.newStart + 1, removed, added, cut: h.removed.length + h.added.length - removed.length - added.length };
}
