import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lineCounts } from '../../core/tools/core/proposal';
import { decodeText } from '../../core/tools/text';
import type { ChangedFile, HostMessage } from '../../protocol';
import { findOpenDocument } from '../editor-files';
import type { BeforeTexts } from './proposal-provider';
import { realFolder, undoWrite } from './undo-write';
import { showError } from '../dialogs';

interface Tracked {
  abs: string;
  display: string;
  /** The file's exact bytes before the turn's first agent edit; null: the agent created it. */
  before: Uint8Array | null;
  /** The real folder the agent wrote it in: Undo writes there or nowhere. */
  folder: string;
  /** The open document's text then, when it held unsaved edits (Undo puts them back). */
  unsaved?: string;
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
    return t ? textOf(t.before) : undefined;
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
    this.files.set(absPath, { abs: absPath, display: this.display(absPath), before, folder, ...(doc?.isDirty ? { unsaved: doc.getText() } : {}) });
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

  /** The diff of a changed file: its text before the turn against the file now. */
  async open(display: string): Promise<void> {
    const t = this.pick(display)[0];
    if (!t) return;
    const left = this.deps.before.set(`changes-${++this.opened}`, t.display, textOf(t.before));
    const name = path.basename(t.abs);
    await vscode.commands.executeCommand('vscode.diff', left, vscode.Uri.file(t.abs), `${name} (before this turn ↔ now)`, { preview: true });
  }

  private pick(display?: string): Tracked[] {
    return [...this.files.values()].filter((t) => display === undefined || t.display === display);
  }

  private forget(list: Tracked[]): void {
    for (const t of list) this.files.delete(t.abs);
    this.deps.redraw();
  }

  /** Puts the file's earlier bytes back exactly (or deletes a file the agent created), never through a link; an open document follows. */
  private async restore(t: Tracked): Promise<void> {
    await undoWrite(t.abs, t.before, t.folder);
    const doc = findOpenDocument(t.abs);
    if (doc && (doc.isDirty || t.unsaved !== undefined)) {
      // The disk is already right; the document returns to what it showed (unsaved edits included).
      const text = t.unsaved ?? textOf(t.before);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      await vscode.workspace.applyEdit(edit);
    }
    this.deps.invalidate(t.abs);
  }

  private async listMessage(): Promise<HostMessage> {
    const files: ChangedFile[] = [];
    for (const t of this.files.values()) {
      let now: Uint8Array | null = null;
      try {
        now = await fs.readFile(t.abs);
      } catch {
        /* deleted since: listed against an empty file */
      }
      const doc = findOpenDocument(t.abs);
      const after = doc ? doc.getText() : textOf(now);
      files.push({ path: t.display, created: t.before === null, ...lineCounts(textOf(t.before), after) });
    }
    return { type: 'changes.list', files };
  }
}
