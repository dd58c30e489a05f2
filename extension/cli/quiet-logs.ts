/**
 * Loggers that keep the CLI's stderr to one line per problem: the turn's final model error is
 * printed by the renderer (`snowpea: ...`), and each state.db notice once.
 */
import type { Logger } from '../core/log';

/** For the model client: its "model request failed" line repeats the error the turn reports, so it goes to debug (--verbose). */
export function modelClientLogger(log: Logger): Logger {
  return {
    ...log,
    warn: (m) => (m.startsWith('model request failed') ? log.debug(m) : log.warn(m)),
    error: (m) => (m.startsWith('model request failed') ? log.debug(m) : log.error(m)),
  };
}

/**
 * Opens a store with a logger that holds back the warnings and errors logged while opening;
 * then prints each notice once (`state.db: ...`) and only the held lines that no notice already
 * says (a recovery logs its cause, then a notice with the same cause). Later lines pass straight through.
 */
export async function openWithNoticesOnce<T extends { notices: readonly string[] }>(log: Logger, open: (log: Logger) => Promise<T>): Promise<T> {
  let opening = true;
  const held: Array<{ level: 'warn' | 'error'; msg: string }> = [];
  const hold = (level: 'warn' | 'error') => (msg: string) => (opening ? held.push({ level, msg }) : log[level](msg));
  const quiet: Logger = { ...log, warn: hold('warn'), error: hold('error') };
  const release = (notices: readonly string[]) => {
    opening = false;
    for (const h of held.splice(0)) if (!notices.some((n) => saysTheSame(n, h.msg))) log[h.level](h.msg);
  };
  try {
    const db = await open(quiet);
    const notices = [...new Set(db.notices)];
    release(notices);
    for (const n of notices) log.warn(`state.db: ${n}`);
    return db;
  } finally {
    release([]);
  }
}

/** Whether the logged line `msg` ("state.db: [path] detail") says nothing that `notice` does not. */
function saysTheSame(notice: string, msg: string): boolean {
  const text = msg.replace(/^state\.db: /, '');
  if (notice.includes(text)) return true;
  // "<file> <cause>": the notice names the cause (the path may hold spaces, so try each split).
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) {
    const cause = text.slice(i + 1);
    if (cause.length >= 8 && notice.includes(cause)) return true;
  }
  return false;
}
