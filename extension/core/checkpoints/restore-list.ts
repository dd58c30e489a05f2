import { byRestoreOrder, type FileChange } from './changes';
import { nestedWords } from './nested';
import type { RestorePlan } from './restore-plan';
import { othersWords } from './workspace-turns';

/**
 * What a restore will do, as the lines a confirmation shows: every file it deletes first and in
 * full (a deletion must never hide behind "and N more"), then the files it recreates or rewrites
 * (at most `maxOthers`, the rest counted), then the files it leaves alone, the nested repositories
 * changed since (no restore covers them: reliability N7) and the other sessions that edited the
 * files since (their changes are undone too: N13).
 */
export function restoreListing(plan: Pick<RestorePlan, 'changes' | 'leftAlone'> & Partial<Pick<RestorePlan, 'nested' | 'others'>>, maxOthers = Infinity): string[] {
  const nested = plan.nested ?? [];
  const sessions = plan.others ?? [];
  const removed = plan.changes.filter((c) => c.status === 'added').sort(byRestoreOrder);
  const others = plan.changes.filter((c) => c.status !== 'added').sort(byRestoreOrder);
  const shown = others.slice(0, maxOthers);
  return [
    ...(removed.length ? [`Deleted (created since): ${removed.length}`, ...removed.map((c) => `  ${c.path}`)] : []),
    ...(shown.length ? [`Put back: ${others.length}`, ...shown.map((c) => `  ${describeChange(c)}`)] : []),
    ...(others.length > shown.length ? [`  and ${others.length - shown.length} more`] : []),
    ...(plan.leftAlone.length ? [`Left alone (no checkpoint held them): ${plan.leftAlone.length}`, ...plan.leftAlone.map((p) => `  ${p}`)] : []),
    ...(nested.length ? [`Left as they are (nested repositories, which checkpoints do not cover): ${nested.length}`, ...nested.map((c) => `  ${nestedWords(c)}`)] : []),
    ...(sessions.length ? [`Also changed since by other Snowpea sessions, whose changes to these files are undone too: ${othersWords(sessions)}`] : []),
  ];
}

export function describeChange(c: FileChange): string {
  if (c.status === 'added') return `${c.path} (created since: deleted)`;
  if (c.status === 'deleted') return `${c.path} (deleted since: recreated)`;
  return `${c.path} (modified: rewritten)`;
}
