import * as fs from 'node:fs';
import type { CheckpointSeam } from '../conversation/checkpoint-seam';
import type { Message } from '../conversation/messages';
import type { Logger } from '../log';
import type { Settings } from '../settings/schema';
import { parseNumstat, parseRaw, type FileChange, type FileStat } from './changes';
import { ensureRepo, literalPathspecs, realOr, repoExists, shadowDirFor, withWorkTreeIndex } from './repo';
import { GitMissingError, nulList, shadowGit, type ShadowRepo } from './shadow-git';
import { userMessageLines } from './transcript';
import { workspaceBytes } from './workspace-size';

export interface CheckpointStoreOptions {
  workspaceRoot: string;
  /** Folder of the shadow repositories, one per workspace (e.g. `<state dir>/checkpoints`); never inside a workspace. */
  dir: string;
  settings: () => Pick<Settings, 'checkpoints.enabled' | 'checkpoints.maxWorkspaceMB'>;
  logger: Logger;
  /** Told once per kind of problem (workspace too large, not a folder, no git), for the caller to show. */
  onNotice?: (message: string) => void;
  /** Snowpea's own folders (state.db's, scratch), never recorded or restored when the workspace holds them; `dir` always is. */
  keepOut?: string[];
}

export type SnapshotResult =
  | { ok: true; turn: number; commit: string }
  | { ok: false; reason: 'disabled' | 'too-large' | 'not-a-folder' | 'no-git' | 'cancelled' | 'failed'; message: string };

export interface Checkpoint {
  turn: number;
  /** When it was taken (ms since the epoch). */
  time: number;
  commit: string;
  /** The first line of the turn's user message, when the caller gave the transcript. */
  message?: string;
}

export class NoCheckpointError extends Error {}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const MB = 1024 * 1024;
/** One git operation at a time per shadow repository in this process. */
const queues = new Map<string, Promise<unknown>>();

/**
 * File checkpoints of one workspace: before each user message, a commit of the work tree in a
 * shadow git repository outside it, named `refs/snowpea/<session>/<turn>`. Lists them, tells
 * which files changed since one, and puts those files back.
 */
export class CheckpointStore implements CheckpointSeam {
  readonly repo: ShadowRepo;
  private readonly told = new Set<string>();

  constructor(private readonly opts: CheckpointStoreOptions) {
    const workTree = realOr(opts.workspaceRoot);
    this.repo = { gitDir: shadowDirFor(opts.dir, workTree), workTree };
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
      return await this.exclusive(async () => {
        await ensureRepo(this.repo, [this.opts.dir, ...(this.opts.keepOut ?? [])], signal);
        const limit = s['checkpoints.maxWorkspaceMB'];
        const bytes = await workspaceBytes(this.repo, limit * MB, signal);
        if (bytes > limit * MB) return { ok: false, reason: 'too-large', message: tooLarge(bytes, limit) } as const;
        const commit = await withWorkTreeIndex(this.repo, signal, true, async (_index, tree) =>
          (await shadowGit(this.repo, ['commit-tree', tree, '-m', `Snowpea checkpoint: session ${sessionId}, before turn ${turn}`], { signal })).trim(),
        );
        await shadowGit(this.repo, ['update-ref', ref, commit], { signal });
        await shadowGit(this.repo, ['gc', '--auto', '--quiet'], { signal });
        return { ok: true, turn, commit } as const;
      });
    } catch (e) {
      if (e instanceof GitMissingError) return { ok: false, reason: 'no-git', message: 'checkpoints are off: git was not found on PATH' };
      if (signal.aborted) return { ok: false, reason: 'cancelled', message: 'the checkpoint was cancelled' };
      return { ok: false, reason: 'failed', message: `could not take a checkpoint of ${this.repo.workTree}: ${(e as Error).message}` };
    }
  }

  async atTurnStart(sessionId: string, turn: number, signal: AbortSignal): Promise<void> {
    const r = await this.snapshot(sessionId, turn, signal).catch((e: Error) => ({ ok: false, reason: 'failed', message: e.message }) as const);
    if (r.ok || r.reason === 'disabled' || r.reason === 'cancelled') return;
    if (r.reason === 'failed') return this.opts.logger.warn(r.message);
    if (this.told.has(r.reason)) return;
    this.told.add(r.reason);
    this.opts.logger.warn(r.message);
    this.opts.onNotice?.(r.message);
  }

  async forget(sessionId: string): Promise<void> {
    if (!SESSION_ID.test(sessionId) || !repoExists(this.repo)) return;
    const signal = new AbortController().signal;
    try {
      await this.exclusive(async () => {
        const refs = nulList(await shadowGit(this.repo, ['for-each-ref', '--format=%(refname)%00', `refs/snowpea/${sessionId}/`], { signal })).map((r) => r.trim()).filter(Boolean);
        if (!refs.length) return;
        await shadowGit(this.repo, ['update-ref', '--stdin'], { signal, input: refs.map((r) => `delete ${r}\n`).join('') });
        await shadowGit(this.repo, ['prune', '--expire=1.hour.ago'], { signal });
      });
    } catch (e) {
      this.opts.logger.warn(`could not remove the checkpoints of session ${sessionId}: ${(e as Error).message}`);
    }
  }

  /** The session's checkpoints, oldest first; with the transcript, each names its message's first line. */
  async list(sessionId: string, transcript?: readonly Message[]): Promise<Checkpoint[]> {
    if (!SESSION_ID.test(sessionId) || !repoExists(this.repo)) return [];
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

  /** Files added, modified or deleted in the work tree since the checkpoint of `turn` (ignored files and nested repositories left out). */
  async changedSince(sessionId: string, turn: number, signal: AbortSignal): Promise<FileChange[]> {
    return (await this.compare(sessionId, turn, signal, false)).changes;
  }

  /** As changedSince, with the lines each file gained and lost (null for binary files). */
  async diffStat(sessionId: string, turn: number, signal: AbortSignal): Promise<FileStat[]> {
    const { changes, numstat } = await this.compare(sessionId, turn, signal, true);
    return changes.map((c) => ({ ...c, ...(numstat?.get(c.path) ?? { added: null, removed: null }) }));
  }

  /**
   * Puts every file changed since the checkpoint of `turn` back as it was: modified files
   * rewritten byte for byte, deleted ones recreated, files created since removed. git writes
   * them and never through a symlink (a symlinked folder in the way is replaced, its target untouched).
   */
  async restore(sessionId: string, turn: number, signal: AbortSignal): Promise<FileChange[]> {
    const commit = await this.commitOf(sessionId, turn, signal);
    return this.exclusive(() =>
      withWorkTreeIndex(this.repo, signal, false, async (index, tree) => {
        const changes = parseRaw(await this.diffTrees('--raw', commit, tree, signal));
        if (!changes.length) return [];
        const input = literalPathspecs(changes.map((c) => c.path));
        await shadowGit(this.repo, ['restore', `--source=${commit}`, '--worktree', '--pathspec-from-file=-', '--pathspec-file-nul'], { signal, index, input });
        return changes;
      }),
    );
  }

  private async compare(sessionId: string, turn: number, signal: AbortSignal, withNumstat: boolean) {
    const commit = await this.commitOf(sessionId, turn, signal);
    return this.exclusive(() =>
      withWorkTreeIndex(this.repo, signal, true, async (_index, tree) => {
        const changes = parseRaw(await this.diffTrees('--raw', commit, tree, signal));
        const numstat = withNumstat && changes.length ? parseNumstat(await this.diffTrees('--numstat', commit, tree, signal)) : undefined;
        return { changes, numstat };
      }),
    );
  }

  /** `git diff-tree` from a checkpoint's tree to another tree (plumbing: no external diff, no textconv). */
  private diffTrees(format: '--raw' | '--numstat', commit: string, tree: string, signal: AbortSignal): Promise<string> {
    return shadowGit(this.repo, ['diff-tree', '-r', '-z', '--no-renames', format, `${commit}^{tree}`, tree], { signal });
  }

  private async commitOf(sessionId: string, turn: number, signal: AbortSignal): Promise<string> {
    const ref = refName(sessionId, turn);
    const found = repoExists(this.repo) ? (await shadowGit(this.repo, ['for-each-ref', '--format=%(objectname)', ref], { signal })).trim() : '';
    if (!found) throw new NoCheckpointError(`session ${sessionId} has no checkpoint before turn ${turn}`);
    return found;
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const key = this.repo.gitDir;
    const run = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => {});
    queues.set(key, tail);
    void tail.then(() => queues.get(key) === tail && queues.delete(key));
    return run;
  }
}

function refName(sessionId: string, turn: number): string {
  if (!SESSION_ID.test(sessionId)) throw new Error(`not a session id: ${JSON.stringify(sessionId)}`);
  if (!Number.isInteger(turn) || turn < 1) throw new Error(`not a turn number: ${turn}`);
  return `refs/snowpea/${sessionId}/${turn}`;
}

function tooLarge(bytes: number, limitMB: number): string {
  return `checkpoints are off for this workspace: at least ${Math.ceil(bytes / MB)} MB of files, over the ${limitMB} MB limit (checkpoints.maxWorkspaceMB; files .gitignore excludes do not count)`;
}
