import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckpointSeam } from '../conversation/checkpoint-seam';
import type { Message } from '../conversation/messages';
import type { Logger } from '../log';
import type { Settings } from '../settings/schema';
import type { FileChange, FileStat } from './changes';
import { coverageMessage, SNOWPEA_EXCLUDES } from './coverage';
import { exclusive } from './git-queue';
import { momentNow } from './nested';
import { collect, pruneStore } from './prune';
import { isSessionId, refName } from './refs';
import { ensureRepo, keepOutPaths, othersHolding, realOr, repoExists, shadowDirFor, withWorkTreeIndex } from './repo';
import { recoverJournal } from './restore-journal';
import { Restorer, type RestorePlan, type RestoreResult, type TurnReport } from './restore-plan';
import { listPoints, type RestorePoint, type RestoreTarget } from './restore-points';
import { GitFailedError, GitMissingError, nulList, shadowGit, type ShadowRepo } from './shadow-git';
import { fallbackNote, keptLine, notHeldLine, tooLarge } from './snapshot-notes';
import { userMessageLines } from './transcript';
import type { TreeRules } from './tree-rules';
import { scanWorkTree } from './workspace-size';
import { WorkspaceTurns } from './workspace-turns';
import { WorkspaceLock } from './writer-lock';

export { NoCheckpointError, type RestorePlan, type RestoreResult, type TurnReport } from './restore-plan';

export interface CheckpointStoreOptions {
  workspaceRoot: string;
  /** Folder of the shadow repositories, one per workspace (e.g. `<state dir>/checkpoints`); never inside a workspace. */
  dir: string;
  settings: () => Pick<Settings, 'checkpoints.enabled' | 'checkpoints.maxWorkspaceMB'> & Partial<Pick<Settings, 'checkpoints.maxFileMB' | 'checkpoints.maxStoreMB' | 'checkpoints.maxAgeDays'>>;
  logger: Logger;
  /** Told once per kind of problem (workspace too large, not a folder, no git), for the caller to show. */
  onNotice?: (message: string) => void;
  /** Snowpea's own folders (state.db's, scratch), never recorded or restored when the workspace holds them; `dir` always is. */
  keepOut?: string[];
  /** Now, in ms since the epoch (tests move it; checkpoints expire by it). */
  clock?: () => number;
  /**
   * A folder every Snowpea process of the user shares (the CLI's and VS Code's checkpoints live
   * apart): a workspace's writer lock and restore journal go there, so a restore in one refuses
   * while a turn of another edits, and either finishes the other's interrupted restore. Default: `dir`.
   */
  coordinationDir?: string;
}

export type SnapshotResult =
  /** `note`: what the checkpoint left out that the user should know (the .gitignore fallback). */
  | { ok: true; turn: number; commit: string; note?: string }
  | { ok: false; reason: 'disabled' | 'too-large' | 'not-a-folder' | 'no-git' | 'cancelled' | 'failed'; message: string };

export interface Checkpoint {
  turn: number;
  /** When it was taken (ms since the epoch). */
  time: number;
  commit: string;
  /** The first line of the turn's user message, when the caller gave the transcript. */
  message?: string;
}

const MB = 1024 * 1024;
const DAY = 24 * 3600 * 1000;
/** The defaults of the limits a caller's settings may leave out. */
const DEFAULTS = { 'checkpoints.maxFileMB': 20, 'checkpoints.maxStoreMB': 1000, 'checkpoints.maxAgeDays': 7 };

/**
 * File checkpoints of one workspace: before each user message, a commit of the work tree in a
 * shadow git repository outside it, named `refs/snowpea/<session>/<turn>`. Lists them, tells
 * which files changed since one, and puts those files back.
 */
export class CheckpointStore implements CheckpointSeam {
  readonly repo: ShadowRepo;
  /** One writer per workspace across processes, and where a restore's journal lives. */
  readonly lock: WorkspaceLock;
  /** Which sessions' turns edited the workspace when, across processes (reliability N13). */
  readonly turns: WorkspaceTurns;
  private readonly told = new Set<string>();
  /** Files over checkpoints.maxFileMB the user was told about. */
  private readonly toldNotHeld = new Set<string>();
  /** The release of each running turn's hold on the workspace, by session. */
  private readonly editing = new Map<string, () => void>();
  /** Plans and applies restores (restore-plan.ts). */
  private readonly restorer: Restorer;

  constructor(private readonly opts: CheckpointStoreOptions) {
    const workTree = realOr(opts.workspaceRoot);
    this.repo = { gitDir: shadowDirFor(opts.dir, workTree), workTree };
    this.lock = new WorkspaceLock(path.join(opts.coordinationDir ?? opts.dir, `${path.basename(this.repo.gitDir)}.workspace`), workTree);
    this.turns = new WorkspaceTurns(path.join(this.lock.dir, 'turns'));
    this.restorer = new Restorer({
      repo: this.repo,
      lock: this.lock,
      turns: this.turns,
      logger: opts.logger,
      keepOut: () => this.keepOut(),
      maxFileBytes: () => this.maxFileBytes(),
      recoverHeld: () => this.recoverHeld(),
    });
  }

  /** The absolute path of a change's workspace-relative `path`. */
  absPath(rel: string): string {
    return path.join(this.repo.workTree, ...rel.split('/'));
  }

  /**
   * Finishes or rolls back a restore that was cut short (a crash, a kill) in any process, as its
   * journal says: before its commit point every file is left as it was, after it every file is
   * put in place. Returns what happened in a sentence (also logged and given to onNotice), or
   * undefined when there was nothing to do. Runs at every turn's start and every restore; hosts
   * call it at start too.
   */
  recoverInterrupted(): string | undefined {
    if (!fs.existsSync(this.lock.journalFile)) return undefined;
    const release = this.lock.tryRestoreLock('finishing an interrupted restore');
    if (!release) return undefined; // a live restore of another process: not interrupted
    try {
      return this.recoverHeld();
    } finally {
      release();
    }
  }

  /** recoverInterrupted with the restore lock held. */
  private recoverHeld(): string | undefined {
    const message = recoverJournal(this.lock.journalFile);
    if (message === undefined) return undefined;
    this.opts.logger.warn(message);
    this.opts.onNotice?.(message);
    return message;
  }

  /** Takes the checkpoint of `turn`; a workspace that cannot have one says why. */
  async snapshot(sessionId: string, turn: number, signal: AbortSignal): Promise<SnapshotResult> {
    const ref = refName(sessionId, turn);
    const s = this.opts.settings();
    if (!s['checkpoints.enabled']) return { ok: false, reason: 'disabled', message: 'checkpoints are off (checkpoints.enabled)' };
    if (!fs.statSync(this.repo.workTree, { throwIfNoEntry: false })?.isDirectory()) {
      return { ok: false, reason: 'not-a-folder', message: `checkpoints are off for this workspace: ${this.repo.workTree} is not a folder` };
    }
    try {
      return await exclusive(this.repo.gitDir, async () => {
        await ensureRepo(this.repo, this.keepOutDirs(), signal);
        // A turn number is never given a second checkpoint (reliability N12): a run killed before its
        // first round was saved leaves the checkpoint but no message, and the next turn gets the same
        // number. The first checkpoint is from before anything that run did, so it stays.
        const earlier = await this.existing(ref, signal);
        if (earlier) {
          this.tellOnce(`kept ${ref}`, keptLine(sessionId, turn, earlier.time));
          return { ok: true, turn, commit: earlier.commit } as const;
        }
        const limit = s['checkpoints.maxWorkspaceMB'] * MB;
        // Changes after this moment are "since the checkpoint" (nested repositories are told by file times).
        const taken = momentNow();
        let base: Omit<TreeRules, 'notHeld'> = { mode: 'all', excludes: SNOWPEA_EXCLUDES, keepOut: this.keepOut() };
        let scan = await scanWorkTree(this.repo, base, this.maxFileBytes(), limit, signal);
        let note: string | undefined;
        if (scan.bytes > limit) {
          // Every file is too much: the repository's .gitignore decides what else stays out (said once).
          const narrow = { ...base, mode: 'gitignore' } as const;
          const narrowScan = await scanWorkTree(this.repo, narrow, this.maxFileBytes(), limit, signal);
          if (narrowScan.bytes > limit) return { ok: false, reason: 'too-large', message: tooLarge(narrowScan.bytes, s['checkpoints.maxWorkspaceMB']) } as const;
          note = fallbackNote(this.repo.workTree, scan.bytes, s['checkpoints.maxWorkspaceMB']);
          [base, scan] = [narrow, narrowScan];
        }
        const rules: TreeRules = { ...base, notHeld: scan.overLimit };
        const title = `Snowpea checkpoint: session ${sessionId}, before turn ${turn}`;
        // The ref is written while the private index is still there: another process's clean-up sees this one at work.
        const commit = await withWorkTreeIndex(this.repo, signal, true, rules, async (_index, _tree, commit) => {
          await shadowGit(this.repo, ['update-ref', ref, commit!, ''], { signal });
          return commit!;
        }, coverageMessage(title, { ...rules, nested: scan.nested, taken }));
        if (scan.overLimit.length) this.tellNotHeld(turn, scan.overLimit);
        await this.prune(signal);
        return { ok: true, turn, commit, ...(note ? { note } : {}) } as const;
      });
    } catch (e) {
      if (e instanceof GitMissingError) return { ok: false, reason: 'no-git', message: 'checkpoints are off: git was not found on PATH' };
      if (signal.aborted) return { ok: false, reason: 'cancelled', message: 'the checkpoint was cancelled' };
      const why = e instanceof GitFailedError && e.diskFull ? `the disk is full (ENOSPC; ${e.message.split('\n')[0]})` : (e as Error).message;
      // Whatever it had written was removed with its incoming objects (repo.ts): the store is as it was (reliability N9).
      return { ok: false, reason: 'failed', message: `could not take a checkpoint of ${this.repo.workTree}: ${why}; nothing of it was kept, and the turn goes on without one` };
    }
  }

  /** The checkpoint `ref` names already, if any. */
  private async existing(ref: string, signal: AbortSignal): Promise<{ commit: string; time: number } | undefined> {
    const [commit, time] = (await shadowGit(this.repo, ['for-each-ref', '--format=%(objectname)%00%(committerdate:unix)', ref], { signal, shadowOnly: true })).trim().split('\0');
    return commit ? { commit, time: Number(time) * 1000 } : undefined;
  }

  /**
   * Files a checkpoint left out for their size: named in the log each time, and told (a notice)
   * the first time each is left out in this process (reliability N10: large binaries never fill the store unsaid).
   */
  private tellNotHeld(turn: number, files: readonly string[]): void {
    const line = notHeldLine(turn, files, this.maxFileBytes());
    const fresh = files.filter((f) => !this.toldNotHeld.has(f));
    if (!fresh.length) return this.opts.logger.info(line);
    for (const f of fresh) this.toldNotHeld.add(f);
    this.opts.logger.warn(line);
    this.opts.onNotice?.(line);
  }

  async atTurnStart(sessionId: string, turn: number, signal: AbortSignal): Promise<void> {
    this.turns.begin(sessionId, turn);
    await this.holdForTurn(sessionId, signal);
    const r: SnapshotResult = await this.snapshot(sessionId, turn, signal).catch((e: Error) => ({ ok: false, reason: 'failed', message: e.message }) as const);
    if (r.ok) return r.note ? this.tellOnce('gitignore-fallback', r.note) : undefined;
    if (r.reason === 'disabled' || r.reason === 'cancelled') return;
    if (r.reason === 'failed') return this.opts.logger.warn(r.message);
    this.tellOnce(r.reason, r.message);
  }

  /** The turn of `sessionId` ended: its hold on the workspace goes. */
  atTurnEnd(sessionId: string): void {
    this.turns.end(sessionId);
    this.editing.get(sessionId)?.();
    this.editing.delete(sessionId);
  }

  /** An interrupted restore dealt with, then the workspace held as edited until atTurnEnd (waiting while another process restores it). */
  private async holdForTurn(sessionId: string, signal: AbortSignal): Promise<void> {
    try {
      this.recoverInterrupted();
      if (this.editing.has(sessionId)) return;
      this.editing.set(sessionId, await this.lock.beginEdits(`a turn of session ${sessionId}`, signal));
    } catch (e) {
      if (!signal.aborted) this.opts.logger.warn(`the turn goes on without holding ${this.repo.workTree}: ${(e as Error).message}`);
    }
  }

  private tellOnce(kind: string, message: string): void {
    if (this.told.has(kind)) return;
    this.told.add(kind);
    this.opts.logger.warn(message);
    this.opts.onNotice?.(message);
  }

  /**
   * Removes the session's checkpoints and restore points, and frees what only they held. Works
   * without the workspace (moved or deleted: git runs in the shadow repository), and also clears
   * the session's refs from the other shadow repositories beside this one (a workspace that was
   * moved has its old checkpoints under its old path's repository; reliability N11).
   */
  async forget(sessionId: string): Promise<void> {
    if (!isSessionId(sessionId)) return;
    const signal = new AbortController().signal;
    for (const repo of [this.repo, ...othersHolding(this.opts.dir, this.repo.gitDir, sessionId)]) {
      if (!repoExists(repo)) continue;
      try {
        await exclusive(repo.gitDir, async () => {
          const refs = nulList(await shadowGit(repo, ['for-each-ref', '--format=%(refname)%00', `refs/snowpea/${sessionId}/`], { signal, shadowOnly: true })).map((r) => r.trim()).filter(Boolean);
          if (!refs.length) return;
          await shadowGit(repo, ['update-ref', '--stdin'], { signal, shadowOnly: true, input: refs.map((r) => `delete ${r}\n`).join('') });
          if (!fs.existsSync(repo.workTree) && (await dropIfGone(repo, signal))) return;
          await collect(repo, signal);
        });
      } catch (e) {
        this.opts.logger.warn(`could not remove the checkpoints of session ${sessionId} from ${repo.gitDir}: ${(e as Error).message}`);
      }
    }
  }

  /** The session's checkpoints, oldest first; with the transcript, each names its message's first line. */
  async list(sessionId: string, transcript?: readonly Message[]): Promise<Checkpoint[]> {
    if (!isSessionId(sessionId) || !repoExists(this.repo)) return [];
    const out = await shadowGit(this.repo, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(committerdate:unix)', `refs/snowpea/${sessionId}/`], { signal: new AbortController().signal });
    const lines = transcript ? userMessageLines(transcript) : [];
    const list: Checkpoint[] = [];
    for (const row of out.split('\n')) {
      const [ref, commit, time] = row.split('\0');
      const turn = Number(ref?.slice(`refs/snowpea/${sessionId}/`.length));
      if (!commit || !Number.isInteger(turn)) continue;
      list.push({ turn, time: Number(time) * 1000, commit, ...(lines[turn - 1] !== undefined ? { message: lines[turn - 1] } : {}) });
    }
    return list.sort((a, b) => a.turn - b.turn);
  }

  /** The session's restore points (each undoes one restore), oldest first. */
  async restorePoints(sessionId: string): Promise<RestorePoint[]> {
    if (!isSessionId(sessionId) || !repoExists(this.repo)) return [];
    return listPoints(this.repo, sessionId, new AbortController().signal);
  }

  /**
   * Files added, modified or deleted in the work tree since the checkpoint of `turn`, removals
   * first (files the checkpoint could not hold, Snowpea's excludes and nested repositories left out).
   */
  async changedSince(sessionId: string, to: RestoreTarget, signal: AbortSignal): Promise<FileChange[]> {
    return (await this.restorePlan(sessionId, to, signal, false)).changes;
  }

  /**
   * What `restore` would do now: the files it changes, those it leaves alone, and what else
   * changed since that no restore covers (`outside` false leaves that out: nested and others empty).
   */
  async restorePlan(sessionId: string, to: RestoreTarget, signal: AbortSignal, outside = true): Promise<RestorePlan> {
    this.recoverInterrupted();
    return this.restorer.plan(sessionId, to, signal, outside);
  }

  /** As changedSince, with the lines each file gained and lost (null for binary files). */
  async diffStat(sessionId: string, to: RestoreTarget, signal: AbortSignal): Promise<FileStat[]> {
    return (await this.turnReport(sessionId, to, signal, false)).files;
  }

  /**
   * The diff stat since the checkpoint of `to` (a turn's, at its end), with the nested
   * repositories changed since (reliability N7) and the other sessions' turns that edited the
   * workspace meanwhile (N13); `outside` false leaves those two out.
   */
  async turnReport(sessionId: string, to: RestoreTarget, signal: AbortSignal, outside = true): Promise<TurnReport> {
    return this.restorer.turnReport(sessionId, to, signal, outside);
  }

  /**
   * Puts every file changed since the checkpoint of `turn` back as it was: modified files
   * rewritten byte for byte, deleted ones recreated, files created since removed. A file the
   * checkpoint could not hold is never removed. `confirmed`: the list the user agreed to; a
   * change not on it (a file made since they were asked) is left alone. All or nothing
   * (restore-apply.ts): every file is written beside its target first, then all are renamed in
   * place under a journal; a file that cannot be written stops it with nothing changed
   * (RestoreNotDoneError names the files), and a crash is finished or rolled back at the next
   * start. Never writes through a symlink (a symlinked folder in the way is replaced, its target
   * untouched). Refuses (WorkspaceBusyError) while another process is in a turn on the workspace.
   * `to`: a checkpoint's turn, or a restore point (`u2`) to undo an earlier restore.
   */
  async restore(sessionId: string, to: RestoreTarget, signal: AbortSignal, confirmed?: readonly FileChange[]): Promise<FileChange[]> {
    return (await this.restoreUndoable(sessionId, to, signal, confirmed)).changes;
  }

  /**
   * As `restore`, and says which restore point undoes it: before any file is touched, the work
   * tree (as the comparison just took it) is committed as the session's next point (reliability
   * N6). A point that cannot be taken stops the restore with nothing changed.
   */
  async restoreUndoable(sessionId: string, to: RestoreTarget, signal: AbortSignal, confirmed?: readonly FileChange[]): Promise<RestoreResult> {
    return this.restorer.restoreUndoable(sessionId, to, signal, confirmed);
  }

  private keepOutDirs(): string[] {
    return [this.opts.dir, ...(this.opts.keepOut ?? [])];
  }

  private keepOut(): string[] {
    return keepOutPaths(this.repo.workTree, this.keepOutDirs());
  }

  private maxFileBytes(): number {
    return (this.opts.settings()['checkpoints.maxFileMB'] ?? DEFAULTS['checkpoints.maxFileMB']) * MB;
  }

  /** The store's limits kept after a checkpoint: expired ones and, over the cap, the oldest removed (said in the log). */
  private async prune(signal: AbortSignal): Promise<void> {
    const s = this.opts.settings();
    const limits = {
      maxStoreBytes: (s['checkpoints.maxStoreMB'] ?? DEFAULTS['checkpoints.maxStoreMB']) * MB,
      maxAgeMs: (s['checkpoints.maxAgeDays'] ?? DEFAULTS['checkpoints.maxAgeDays']) * DAY,
      now: (this.opts.clock ?? Date.now)(),
    };
    const said = await pruneStore(this.repo, limits, signal);
    if (said) this.opts.logger.info(said);
    else await shadowGit(this.repo, ['gc', '--auto', '--quiet'], { signal });
  }
}

/**
 * The workspace of `repo` is gone (moved or deleted): its index (a stat cache of files no longer
 * there) goes, so git can free what only the index held, and the whole repository goes once no
 * checkpoint is left in it. True when the repository was removed.
 */
async function dropIfGone(repo: ShadowRepo, signal: AbortSignal): Promise<boolean> {
  const left = (await shadowGit(repo, ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/'], { signal, shadowOnly: true })).trim();
  if (!left) {
    await fs.promises.rm(repo.gitDir, { recursive: true, force: true });
    return true;
  }
  await fs.promises.rm(path.join(repo.gitDir, 'index'), { force: true });
  return false;
}
