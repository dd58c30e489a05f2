import * as vscode from 'vscode';
import type { FileWriter } from '../../core/tools/types';
import type { HostMessage } from '../../protocol';
import { ChangeDecorations } from './change-decorations';
import { DiffReview } from './diff-review';
import { BEFORE_SCHEME, BeforeTexts, PROPOSAL_SCHEME, ProposalFiles } from './proposal-provider';
import { TurnChanges } from './turn-changes';

export interface EditSupportDeps {
  post(msg: HostMessage): void;
  /** Tells the repeat guard a file changed. */
  invalidate(absPath: string): void;
  warn(message: string): void;
}

/**
 * The editor side of the agent's edits: proposals reviewed in a diff before they land, and the
 * turn's auto-approved edits listed for Keep or Undo with their lines marked in the editor.
 */
export class EditSupport implements vscode.Disposable {
  private readonly before = new BeforeTexts();
  private readonly proposals = new ProposalFiles();
  readonly review: DiffReview;
  readonly changes: TurnChanges;
  private readonly decorations: ChangeDecorations;
  private readonly disposables: vscode.Disposable[];

  constructor(deps: EditSupportDeps) {
    this.review = new DiffReview(this.before, this.proposals, deps.warn);
    this.changes = new TurnChanges(
      { post: deps.post, invalidate: deps.invalidate, before: this.before, redraw: () => this.decorations.refresh() },
      (p) => vscode.workspace.asRelativePath(p, (vscode.workspace.workspaceFolders?.length ?? 0) > 1),
    );
    this.decorations = new ChangeDecorations((p) => this.changes.beforeText(p));
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, this.before),
      vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, this.proposals, { isCaseSensitive: true }),
      this.before,
      this.proposals,
      this.review,
      this.decorations,
    ];
  }

  /** `inner` with the turn's changes noted: each file's bytes are kept before the turn first writes it. */
  trackWrites(inner: FileWriter): FileWriter {
    return {
      write: async (absPath, bytes, signal, opts) => {
        await this.changes.beforeWrite(absPath, !!opts?.reviewed);
        await inner.write(absPath, bytes, signal, opts);
        this.changes.afterWrite();
      },
    };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
