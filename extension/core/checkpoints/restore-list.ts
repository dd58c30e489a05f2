import { byRestoreOrder, type FileChange } from './changes';
import type { RestorePlan } from './store';

/**
 * What a restore will do, as the lines a confirmation shows: every file it deletes first and in
 * full (a deletion must never hide behind "and N more"), then the files it recreates or rewrites
 * (at most `maxOthers`, the rest counted), then the files it leaves alone.
 */
export function restoreListing(plan: RestorePlan, maxOthers = Infinity): string[] {
  const removed = plan.changes.filter((c) => c.status === 'added').sort(byRestoreOrder);
  const others = plan.changes.filter((c) => c.status !== 'added').sort(byRestoreOrder);
  const shown = others.slice(0, maxOthers);
  return [
    ...(removed.length ? [`Deleted (created since): ${removed.length}`, ...removed.map((c) => `  ${c.path}`)] : []),
    ...(shown.length ? [`Put back: ${others.length}`, ...shown.map((c) => `  ${describeChange(c)}`)] : []),
    ...(others.length > shown.length ? [`  and ${others.length - shown.length} more`] : []),
    ...(plan.leftAlone.length ? [`Left alone (no checkpoint held them): ${plan.leftAlone.length}`, ...plan.leftAlone.map((p) => `  ${p}`)] : []),
  ];
}

export function describeChange(c: FileChange): string {
  if (c.status === 'added') return `${c.path} (created since: deleted)`;
  if (c.status === 'deleted') return `${c.path} (deleted since: recreated)`;
  return `${c.path} (modified: rewritten)`;
}
