/**
 * Restore points (reliability N6): before every restore, the work tree as it was just then is
 * committed to the shadow store under `refs/snowpea/<session>/undo/<n>`, so the restore can itself
 * be undone by restoring to it. A point is named `u<n>` (`u1`, `u2`, ...) wherever a checkpoint's
 * turn number is accepted; it lives under the session's refs, so deleting the session and the
 * store's age and size limits remove points like checkpoints.
 */
import { shadowGit, type ShadowRepo } from './shadow-git';

/** A restore point's name: `u` and its number. */
export type PointName = `u${number}`;

/** What a restore can go back to: a checkpoint (its turn) or a restore point. */
export type RestoreTarget = number | PointName;

export interface RestorePoint {
  name: PointName;
  /** When it was taken (ms since the epoch), just before the restore. */
  time: number;
  commit: string;
  /** The target of the restore it was taken before (a turn, or another point when that restore was itself an undo). */
  before: RestoreTarget | undefined;
}

const POINT = /^u([1-9]\d{0,8})$/;

export function isPointName(s: string): s is PointName {
  return POINT.test(s);
}

/** `--to 3` or `--to u2`; undefined for anything else. */
export function parseTarget(s: string | undefined): RestoreTarget | undefined {
  if (s === undefined) return undefined;
  if (isPointName(s)) return s;
  const turn = Number(s);
  return /^\d+$/.test(s) && Number.isInteger(turn) && turn >= 1 ? turn : undefined;
}

/** `before turn 3`, `restore point u2`: a target in words. */
export function targetWords(to: RestoreTarget): string {
  return typeof to === 'number' ? `before turn ${to}` : `restore point ${to}`;
}

/** The ref prefix of a session's restore points. */
export function pointsPrefix(sessionId: string): string {
  return `refs/snowpea/${sessionId}/undo/`;
}

export function pointRef(sessionId: string, name: PointName): string {
  return `${pointsPrefix(sessionId)}${name.slice(1)}`;
}

/** The commit title of a point; `before restore to <target>` is read back by `listPoints`. */
export function pointTitle(sessionId: string, to: RestoreTarget): string {
  return `Snowpea restore point: session ${sessionId}, before restore to ${to}`;
}

/** The session's restore points, oldest first. */
export async function listPoints(repo: ShadowRepo, sessionId: string, signal: AbortSignal): Promise<RestorePoint[]> {
  const prefix = pointsPrefix(sessionId);
  const out = await shadowGit(repo, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(committerdate:unix)%00%(contents:subject)', prefix], { signal });
  const points: RestorePoint[] = [];
  for (const row of out.split('\n')) {
    const [ref, commit, time, subject] = row.split('\0');
    const name = `u${ref?.slice(prefix.length)}`;
    if (!commit || !isPointName(name)) continue;
    points.push({ name, time: Number(time) * 1000, commit, before: parseTarget(/ before restore to (\S+)$/.exec(subject ?? '')?.[1]) });
  }
  return points.sort((a, b) => Number(a.name.slice(1)) - Number(b.name.slice(1)));
}

/** The name the next point takes: one past the highest the session has. */
export async function nextPointName(repo: ShadowRepo, sessionId: string, signal: AbortSignal): Promise<PointName> {
  const points = await listPoints(repo, sessionId, signal);
  return `u${(Number(points.at(-1)?.name.slice(1) ?? 0)) + 1}`;
}
