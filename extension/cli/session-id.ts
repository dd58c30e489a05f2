/**
 * Session ids as people type them: the full id, or a prefix of it (at least MIN_PREFIX
 * characters) that names one stored session. An ambiguous prefix is an error listing the matches.
 */
import type { StateDb } from '../core/store';
import { oneLine } from './terminal-text';

export const MIN_PREFIX = 4;
/** How many matches an ambiguous prefix lists. */
const MAX_LISTED = 10;

export class SessionIdError extends Error {}

/** The id of the stored session `typed` names; throws SessionIdError when none, or more than one, matches. */
export function resolveSessionId(store: Pick<StateDb, 'getSession' | 'listSessions' | 'file'>, typed: string): string {
  if (store.getSession(typed)) return typed;
  const short = typed.length < MIN_PREFIX;
  const matches = short ? [] : store.listSessions({ includeChildren: true }).filter((s) => s.id.startsWith(typed));
  if (matches.length === 1) return matches[0].id;
  if (!matches.length) {
    const hint = short ? `; a shortened id needs at least ${MIN_PREFIX} characters` : '';
    throw new SessionIdError(`no session ${typed} in ${store.file}${hint} (see: snowpea sessions list --all)`);
  }
  const listed = matches.slice(0, MAX_LISTED).map((s) => `  ${s.id}  ${oneLine(s.title)}`);
  const more = matches.length > MAX_LISTED ? [`  … and ${matches.length - MAX_LISTED} more`] : [];
  throw new SessionIdError([`${typed} is the start of ${matches.length} session ids; give more of it:`, ...listed, ...more].join('\n'));
}
