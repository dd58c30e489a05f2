import { openCliStore, stderrLogger, type CommonFlags } from './setup';

export interface SessionsFlags extends CommonFlags {
  json?: boolean;
  format?: string;
}

/** `snowpea sessions list|show|export`. */
export async function sessionsCommand(sub: string | undefined, id: string | undefined, flags: SessionsFlags): Promise<number> {
  const log = stderrLogger(!!flags.verbose);
  const store = await openCliStore(flags, log);
  try {
    if (sub === 'list' || sub === undefined) {
      const rows = store.listSessions().map((s) => ({ id: s.id, title: s.title, created: new Date(s.created).toISOString(), updated: new Date(s.updated).toISOString(), rounds: s.rounds }));
      if (flags.json) process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      else if (!rows.length) process.stdout.write('no sessions yet\n');
      else for (const r of rows) process.stdout.write(`${r.id}  ${r.updated.slice(0, 16).replace('T', ' ')}  ${String(r.rounds).padStart(3)} rounds  ${r.title}\n`);
      return 0;
    }
    if (!id) {
      log.error(`snowpea sessions ${sub} needs a session id (see: snowpea sessions list)`);
      return 1;
    }
    if (!store.getSession(id)) {
      log.error(`no session ${id} in ${store.file}`);
      return 1;
    }
    if (sub === 'show') {
      process.stdout.write(store.exportSession(id, 'md'));
      return 0;
    }
    if (sub === 'export') {
      const format = flags.format ?? 'json';
      if (format !== 'json' && format !== 'md') {
        log.error(`--format must be json or md, not ${format}`);
        return 1;
      }
      process.stdout.write(store.exportSession(id, format));
      return 0;
    }
    log.error(`unknown sessions command ${sub}: use list, show or export`);
    return 1;
  } finally {
    await store.close();
  }
}
