import * as path from 'node:path';
import type { CheckpointSeam } from '../conversation/checkpoint-seam';
import type { FileChange } from './changes';
import type { PointName, RestoreTarget } from './restore-points';
import { NoCheckpointError, type CheckpointStore, type RestorePlan, type RestoreResult } from './store';

/** One folder of a multi-root workspace and its checkpoint store. */
export interface FolderStore {
  /** The folder's name as paths write it (`name/rest`). */
  name: string;
  store: CheckpointStore;
}

/** What the host restores through: one store (a single-folder workspace) or every folder's (WorkspaceCheckpoints). */
export interface RestoreSeam extends CheckpointSeam {
  recoverInterrupted(): string | undefined;
  restorePlan(sessionId: string, to: RestoreTarget, signal: AbortSignal): Promise<RestorePlan>;
  restoreUndoable(sessionId: string, to: RestoreTarget, signal: AbortSignal, confirmed?: readonly FileChange[]): Promise<RestoreResult>;
  /** The absolute path of a change's `path`. */
  absPath(rel: string): string;
}

/**
 * Checkpoints of a multi-root workspace: one store per folder (each its own shadow repository,
 * writer lock and restore journal), and paths named `folder/path` as tools name them. A restore
 * restores folder after folder, each atomically (its journal); when a later folder's restore
 * fails, the folders already restored are put back through their restore points, so the
 * workspace is left as it was unless that putting back fails too (then the error says which).
 */
export class WorkspaceCheckpoints implements RestoreSeam {
  /** Undo points of multi-folder restores: the name handed out, and each folder's own point. */
  private readonly undos = new Map<PointName, Map<number, PointName>>();

  constructor(private readonly folders: readonly FolderStore[]) {}

  async atTurnStart(sessionId: string, turn: number, signal: AbortSignal): Promise<void> {
    for (const f of this.folders) await f.store.atTurnStart(sessionId, turn, signal);
  }

  atTurnEnd(sessionId: string): void {
    for (const f of this.folders) f.store.atTurnEnd(sessionId);
  }

  async forget(sessionId: string): Promise<void> {
    for (const f of this.folders) await f.store.forget(sessionId);
  }

  recoverInterrupted(): string | undefined {
    const told = this.folders.flatMap((f) => {
      const m = f.store.recoverInterrupted();
      return m ? [`${f.name}: ${m}`] : [];
    });
    return told.length ? told.join('\n') : undefined;
  }

  absPath(rel: string): string {
    const { folder, rest } = this.split(rel);
    return folder ? path.join(folder.store.repo.workTree, ...rest.split('/')) : rel;
  }

  /** The plan of every folder that has the checkpoint (a folder added since has none: it is left as it is and listed so). */
  async restorePlan(sessionId: string, to: RestoreTarget, signal: AbortSignal): Promise<RestorePlan> {
    const plan: RestorePlan = { changes: [], leftAlone: [], nested: [], others: [] };
    let found = 0;
    for (const [i, f] of this.folders.entries()) {
      const target = this.targetIn(i, to);
      if (target === undefined) continue;
      let p: RestorePlan;
      try {
        p = await f.store.restorePlan(sessionId, target, signal);
      } catch (e) {
        if (!(e instanceof NoCheckpointError)) throw e;
        if (typeof to === 'number') plan.leftAlone.push(`${f.name}/ (this folder has no checkpoint from then)`);
        continue;
      }
      found++;
      const named = (p: string) => `${f.name}/${p}`;
      plan.changes.push(...p.changes.map((c) => ({ ...c, path: named(c.path) })));
      plan.leftAlone.push(...p.leftAlone.map(named));
      plan.nested.push(...p.nested.map((n) => ({ ...n, repo: named(n.repo) })));
      for (const o of p.others) if (!plan.others.some((x) => JSON.stringify(x) === JSON.stringify(o))) plan.others.push(o);
    }
    if (!found) throw new NoCheckpointError(`no folder of the workspace has a checkpoint for ${to}`);
    return plan;
  }

  async restoreUndoable(sessionId: string, to: RestoreTarget, signal: AbortSignal, confirmed?: readonly FileChange[]): Promise<RestoreResult> {
    const done: Array<{ i: number; undo?: PointName; changes: FileChange[] }> = [];
    for (const [i, f] of this.folders.entries()) {
      const target = this.targetIn(i, to);
      if (target === undefined) continue;
      const mine = confirmed?.flatMap((c) => (this.split(c.path).folder === f ? [{ ...c, path: this.split(c.path).rest }] : []));
      if (mine && !mine.length) continue;
      try {
        const r = await f.store.restoreUndoable(sessionId, target, signal, mine);
        done.push({ i, undo: r.undo, changes: r.changes.map((c) => ({ ...c, path: `${f.name}/${c.path}` })) });
      } catch (e) {
        if (e instanceof NoCheckpointError && typeof to === 'number' && !confirmed) continue;
        throw await this.rollBack(sessionId, done, f.name, e as Error, signal);
      }
    }
    const points = new Map(done.flatMap((d) => (d.undo ? [[d.i, d.undo] as const] : [])));
    return { changes: done.flatMap((d) => d.changes), ...(points.size ? { undo: this.nameUndo(points) } : {}) };
  }

  /** Puts the folders restored so far back (their restore points); the error to throw says what holds. */
  private async rollBack(sessionId: string, done: ReadonlyArray<{ i: number; undo?: PointName }>, failed: string, cause: Error, signal: AbortSignal): Promise<Error> {
    const stuck: string[] = [];
    for (const d of done) {
      if (!d.undo) continue;
      const f = this.folders[d.i]!;
      try {
        await f.store.restore(sessionId, d.undo, signal);
      } catch (e) {
        stuck.push(`${f.name} (${(e as Error).message}; its restore point ${d.undo} holds the files as they were)`);
      }
    }
    const rolled = done.some((d) => d.undo) ? (stuck.length ? ` The folders restored before it could not all be put back: ${stuck.join('; ')}.` : ' The folders restored before it were put back as they were.') : '';
    return new Error(`the restore of ${failed} failed: ${cause.message}.${rolled}`, { cause });
  }

  /** A name for this restore's undo, unused by the folders' own points as far as this window knows. */
  private nameUndo(points: Map<number, PointName>): PointName {
    let n = Math.max(...[...points.values()].map((p) => Number(p.slice(1))));
    while (this.undos.has(`u${n}`)) n++;
    const name: PointName = `u${n}`;
    this.undos.set(name, points);
    return name;
  }

  /** The folder's own target: the turn, or its part of a multi-folder undo (undefined: nothing of it to undo). */
  private targetIn(i: number, to: RestoreTarget): RestoreTarget | undefined {
    if (typeof to === 'number') return to;
    const points = this.undos.get(to);
    return points ? points.get(i) : to;
  }

  private split(rel: string): { folder?: FolderStore; rest: string } {
    const cut = rel.indexOf('/');
    const folder = cut > 0 ? this.folders.find((f) => f.name === rel.slice(0, cut)) : undefined;
    return folder ? { folder, rest: rel.slice(cut + 1) } : { rest: rel };
  }
}
