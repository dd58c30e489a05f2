/**
 * Restores, planned and applied: what changed in the work tree since a checkpoint (or a restore
 * point) under the rules it was taken under, what else changed that no restore covers, and the
 * putting back of those files behind a restore point that undoes it (restore-apply.ts writes
 * them). CheckpointStore hands its restore methods over to a Restorer.
 */
import * as fs from 'node:fs';
import type { Logger } from '../log';
import { byRestoreOrder, parseNumstat, parseRaw, type FileChange, type FileStat } from './changes';
import { coverageMessage, parseCoverage } from './coverage';
import { exclusive } from './git-queue';
import { momentNow, nestedChangesSince, type NestedChange } from './nested';
import { notHeldBy } from './not-held';
import { refName, validSession } from './refs';
import { repoExists, withWorkTreeIndex } from './repo';
import { restoreAtomically } from './restore-apply';
import { nextPointName, pointRef, pointTitle, targetWords, type PointName, type RestoreTarget } from './restore-points';
import { shadowGit, type ShadowRepo } from './shadow-git';
import type { TreeRules } from './tree-rules';
import { scanWorkTree } from './workspace-size';
import type { TurnSpan, WorkspaceTurns } from './workspace-turns';
import type { WorkspaceLock } from './writer-lock';

export class NoCheckpointError extends Error {}

/** What a restore did: the files it changed and the restore point that undoes it (none when nothing changed). */
export interface RestoreResult {
  changes: FileChange[];
  /** Restoring to it puts the files back as they were just before this restore. */
  undo?: PointName;
}

/** What a restore to a checkpoint would do: the files it changes, removals first, and the ones it leaves alone. */
export interface RestorePlan {
  changes: FileChange[];
  /** Files that look created since but that the checkpoint could not hold (over the size limit, or excluded by the .gitignore it was taken under): never removed. */
  leftAlone: string[];
  /** Nested repositories in which something changed since (never in a checkpoint: left as they are; reliability N7). */
  nested: NestedChange[];
  /** Turns of other Snowpea sessions that edited the workspace since (their changes are among `changes`; reliability N13). */
  others: TurnSpan[];
}

/** What a turn changed (`run`'s diff stat), and what the stat cannot tell apart or does not cover. */
export interface TurnReport {
  files: FileStat[];
  /** Nested repositories changed since the turn's checkpoint (not in `files`). */
  nested: NestedChange[];
  /** Other sessions' turns that edited the workspace during this one (their files are in `files` too). */
  others: TurnSpan[];
}

/** What a Restorer works with, from its CheckpointStore. */
export interface RestorerDeps {
  repo: ShadowRepo;
  /** The writer lock a restore takes, and where its journal goes. */
  lock: WorkspaceLock;
  turns: WorkspaceTurns;
  logger: Logger;
  /** The paths never recorded or restored (Snowpea's own folders in the work tree), as of now. */
  keepOut: () => string[];
  /** checkpoints.maxFileMB in bytes, as of now. */
  maxFileBytes: () => number;
  /** Finishes or rolls back an interrupted restore; called with the restore lock held. */
  recoverHeld: () => void;
}

/** The restores of one workspace's checkpoint store. */
export class Restorer {
  constructor(private readonly d: RestorerDeps) {}

  /**
   * What a restore to `to` would do now: the files it changes, those it leaves alone, and what else
   * changed since that no restore covers (`outside` false leaves that out: nested and others empty).
   */
  async plan(sessionId: string, to: RestoreTarget, signal: AbortSignal, outside = true): Promise<RestorePlan> {
    const commit = await this.commitOf(sessionId, to, signal);
    return exclusive(this.d.repo.gitDir, () => this.withPlan(commit, signal, true, async (plan) => plan, outside ? { sessionId, to } : undefined));
  }

  /**
   * The diff stat since the checkpoint of `to` (a turn's, at its end), with the nested
   * repositories changed since (reliability N7) and the other sessions' turns that edited the
   * workspace meanwhile (N13); `outside` false leaves those two out.
   */
  async turnReport(sessionId: string, to: RestoreTarget, signal: AbortSignal, outside = true): Promise<TurnReport> {
    const commit = await this.commitOf(sessionId, to, signal);
    return exclusive(this.d.repo.gitDir, () =>
      this.withPlan(
        commit,
        signal,
        true,
        async ({ changes, nested, others }, _index, tree) => {
          const numstat = changes.length ? parseNumstat(await this.diffTrees('--numstat', commit, tree, signal)) : undefined;
          return { files: changes.map((c) => ({ ...c, ...(numstat?.get(c.path) ?? { added: null, removed: null }) })), nested, others };
        },
        outside ? { sessionId, to } : undefined,
      ),
    );
  }

  /**
   * CheckpointStore's `restore` (see there), saying which restore point undoes it: before any file
   * is touched, the work tree (as the comparison just took it) is committed as the session's next
   * point (reliability N6). A point that cannot be taken stops the restore with nothing changed.
   */
  async restoreUndoable(sessionId: string, to: RestoreTarget, signal: AbortSignal, confirmed?: readonly FileChange[]): Promise<RestoreResult> {
    const commit = await this.commitOf(sessionId, to, signal);
    const agreed = confirmed && new Set(confirmed.map(changeKey));
    return exclusive(this.d.repo.gitDir, async () => {
      const release = this.d.lock.beginRestore(`a restore of session ${sessionId}`);
      try {
        this.d.recoverHeld();
        return await this.withPlan(commit, signal, false, async (plan, _index, tree, rules) => {
          const changes = agreed ? plan.changes.filter((c) => agreed.has(changeKey(c))) : plan.changes;
          if (!changes.length) return { changes: [] };
          const undo = await this.takePoint(sessionId, to, tree, rules, signal);
          await restoreAtomically({ repo: this.d.repo, commit, changes, journalFile: this.d.lock.journalFile, sessionId, target: targetWords(to), signal });
          return { changes, undo };
        });
      } finally {
        release();
      }
    });
  }

  /** Commits `tree` (the work tree under `rules`) as the session's next restore point. */
  private async takePoint(sessionId: string, to: RestoreTarget, tree: string, rules: TreeRules, signal: AbortSignal): Promise<PointName> {
    const name = await nextPointName(this.d.repo, sessionId, signal);
    const commit = (await shadowGit(this.d.repo, ['commit-tree', tree, '-F', '-'], { signal, input: coverageMessage(pointTitle(sessionId, to), { ...rules, taken: momentNow() }) })).trim();
    // Only a new name: two restores racing never overwrite each other's point.
    await shadowGit(this.d.repo, ['update-ref', pointRef(sessionId, name), commit, ''], { signal });
    this.d.logger.info(`restore point ${name} of session ${sessionId}: the files as they were before the restore to ${targetWords(to)} (undo with a restore to ${name})`);
    return name;
  }

  /**
   * Runs `fn` with the plan of a restore to `commit`: the work tree taken under the rules the
   * checkpoint was taken under (its coverage, today's size limit), compared with it, and the
   * files that look created since but that it could not hold set apart. With `outside` (the
   * session and target the commit is of), also the nested repositories and other sessions' turns
   * since; otherwise those lists are empty.
   */
  private async withPlan<T>(
    commit: string,
    signal: AbortSignal,
    keep: boolean,
    fn: (plan: RestorePlan, index: string, tree: string, rules: TreeRules) => Promise<T>,
    outside?: { sessionId: string; to: RestoreTarget },
  ): Promise<T> {
    const coverage = parseCoverage(await shadowGit(this.d.repo, ['cat-file', 'commit', commit], { signal }));
    const base = { mode: coverage.mode, excludes: coverage.excludes, keepOut: this.d.keepOut() };
    const scan = await scanWorkTree(this.d.repo, base, this.d.maxFileBytes(), Infinity, signal);
    const rules: TreeRules = { ...base, notHeld: scan.overLimit };
    let nested: NestedChange[] = [];
    let others: TurnSpan[] = [];
    if (outside) {
      // The turn's own start (its first attempt) where recorded: the checkpoint came just after it.
      const since = (typeof outside.to === 'number' ? this.d.turns.startOf(outside.sessionId, outside.to) : undefined) ?? coverage.taken ?? 0;
      nested = await nestedChangesSince(this.d.repo.workTree, [...coverage.nested, ...scan.nested], since, signal);
      others = this.d.turns.othersSince(outside.sessionId, since);
    }
    return withWorkTreeIndex(this.d.repo, signal, keep, rules, async (index, tree) => {
      const raw = parseRaw(await this.diffTrees('--raw', commit, tree, signal));
      const leftAlone = await notHeldBy(this.d.repo, commit, coverage, raw.filter((c) => c.status === 'added').map((c) => c.path), signal);
      const changes = raw.filter((c) => !leftAlone.has(c.path)).map((c) => (c.status === 'deleted' && this.present(c.path) ? { ...c, status: 'modified' as const } : c));
      return fn({ changes: changes.sort(byRestoreOrder), leftAlone: [...leftAlone].sort(), nested, others }, index, tree, rules);
    });
  }

  /** A file is at `rel` (one the comparison left out, being over the size limit now). */
  private present(rel: string): boolean {
    try {
      return !!fs.lstatSync(`${this.d.repo.workTree}/${rel}`, { throwIfNoEntry: false });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return false; // a file where its folder was
      throw e;
    }
  }

  /** `git diff-tree` from a checkpoint's tree to another tree (plumbing: no external diff, no textconv). */
  private diffTrees(format: '--raw' | '--numstat', commit: string, tree: string, signal: AbortSignal): Promise<string> {
    return shadowGit(this.d.repo, ['diff-tree', '-r', '-z', '--no-renames', format, `${commit}^{tree}`, tree], { signal });
  }

  /** The commit of the checkpoint (or restore point) `to` of the session; NoCheckpointError when there is none. */
  private async commitOf(sessionId: string, to: RestoreTarget, signal: AbortSignal): Promise<string> {
    const ref = typeof to === 'number' ? refName(sessionId, to) : pointRef(validSession(sessionId), to);
    const found = repoExists(this.d.repo) ? (await shadowGit(this.d.repo, ['for-each-ref', '--format=%(objectname)', ref], { signal })).trim() : '';
    if (!found) throw new NoCheckpointError(typeof to === 'number' ? `session ${sessionId} has no checkpoint before turn ${to}` : `session ${sessionId} has no restore point ${to}`);
    return found;
  }
}

function changeKey(c: FileChange): string {
  return `${c.status}\0${c.path}`;
}
