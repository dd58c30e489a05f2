import * as path from 'node:path';
import * as vscode from 'vscode';
import { hunkAt, splitHunks, undoHunk } from '../../core/text/hunks';
import type { ApprovalDecision, WriteProposal } from '../../core/tools/types';
import { cursorInDiff } from './cursor-side';
import { PROPOSAL_SCHEME, type BeforeTexts, type ProposalFiles } from './proposal-provider';
import { showInfo } from '../dialogs';
import { changedRange } from '../workspace/editor-files';

interface Review {
  uri: vscode.Uri;
  display: string;
  /** The file's text the proposal is compared with (the diff's left side). */
  current: string;
  proposed: string;
  /** The user typed in the proposal (its text may differ from `proposed`). */
  edited: boolean;
  answer(decision: ApprovalDecision): void;
}

const sameUri = (a: vscode.Uri, b: vscode.Uri) => a.toString() === b.toString();

/**
 * A write waiting for approval, shown as a diff editor: the file's current text (read-only) against
 * the proposal, an in-memory document the user may change. Accept and Reject in the diff's title
 * bar answer the approval, closing the diff rejects; `finish` collects the text and closes the diff.
 */
export class DiffReview implements vscode.Disposable {
  private readonly reviews = new Map<string, Review>();
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly before: BeforeTexts,
    private readonly proposals: ProposalFiles,
    private readonly warn: (message: string) => void,
  ) {
    this.disposables = [
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const input = tab.input;
          if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === PROPOSAL_SCHEME) this.find(input.modified)?.answer('deny');
        }
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme !== PROPOSAL_SCHEME || !e.contentChanges.length) return;
        const r = this.find(e.document.uri);
        if (r) r.edited = true;
      }),
    ];
  }

  /** Opens the diff for approval `id`; `answer` hears the user's Accept, Reject or closing of the diff. */
  async open(id: string, proposal: WriteProposal, answer: (decision: ApprovalDecision) => void): Promise<void> {
    const left = this.before.set(id, proposal.display, proposal.current);
    const uri = this.proposals.create(id, proposal.display, proposal.proposed);
    this.reviews.set(id, { uri, display: proposal.display, current: proposal.current, proposed: proposal.proposed, edited: false, answer });
    const name = path.basename(proposal.path);
    const title = proposal.created ? `${name} (new file ↔ Snowpea's proposal)` : `${name} (current ↔ Snowpea's proposal)`;
    try {
      await vscode.commands.executeCommand('vscode.diff', left, uri, title, { preview: false });
    } catch (e) {
      this.warn(`could not open the diff of ${proposal.display}: ${(e as Error).message}; answer on the chat's card`);
    }
  }

  /** The text the user accepted (the proposal as they left it); the diff closes. Undefined when `id` has no review. */
  async finish(id: string): Promise<string | undefined> {
    const r = this.reviews.get(id);
    if (!r) return undefined;
    this.reviews.delete(id);
    const doc = vscode.workspace.textDocuments.find((d) => sameUri(d.uri, r.uri));
    // The editor keeps one line ending per document: untouched, the proposal is taken as it was made.
    const text = r.edited && doc ? doc.getText() : r.proposed;
    try {
      if (doc?.isDirty) await doc.save(); // kept in memory; closing then does not ask to save
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && sameUri(t.input.modified, r.uri));
      if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
    } catch (e) {
      this.warn(`could not close the diff: ${(e as Error).message}`);
    }
    this.before.delete(id);
    this.proposals.delete(r.uri);
    return text;
  }

  /** The title bar's Accept / Reject: the review of `uri`, else the active editor's, else the only one open. */
  answer(decision: ApprovalDecision, uri?: unknown): void {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    const r = (target && this.find(target)) ?? (this.reviews.size === 1 ? [...this.reviews.values()][0] : undefined);
    if (r) r.answer(decision);
    else void showInfo('Snowpea: no proposed edit is waiting for review here.');
  }

  /**
   * The diff's Reject Hunk at Cursor: the proposal's hunk under the cursor (in either side) goes
   * back to the file's current lines in the proposal; the rest stays proposed, for Accept or Reject.
   */
  async rejectHunk(): Promise<void> {
    const cursor = cursorInDiff();
    const r = cursor?.uri && this.find(cursor.uri);
    const doc = r && vscode.workspace.textDocuments.find((d) => sameUri(d.uri, r.uri));
    if (!cursor || !r || !doc) {
      void showInfo('Snowpea: this editor shows no proposed edit; Reject Hunk works in the diff of an edit waiting for your approval.');
      return;
    }
    const proposed = doc.getText();
    const hunk = hunkAt(splitHunks(r.current, proposed), cursor.editor.selection.active.line, cursor.side);
    if (!hunk) {
      void showInfo(`Snowpea: the cursor is not on a proposed change of ${r.display}; put it on a changed line.`);
      return;
    }
    const change = changedRange(doc, undoHunk(r.current, proposed, hunk.key));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, change.range, change.text);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void showInfo(`Snowpea: the editor refused to change the proposal of ${r.display}.`);
      return;
    }
    r.edited = true;
    if (!splitHunks(r.current, doc.getText()).length) {
      void showInfo(`Snowpea: nothing of the proposed change to ${r.display} is left; Reject it, or Accept to leave the file as it is.`);
    }
  }

  private find(uri: vscode.Uri): Review | undefined {
    return [...this.reviews.values()].find((r) => sameUri(r.uri, uri));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
