/** openStateDb: lock the file, load and recover it, and hand back a ready StateDb. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../log';
import { ContentFiles } from './content-files';
import { removeStaleTemps, writeFileAtomicSync } from './files';
import { JournalWriter } from './journal-writer';
import { narrowMode, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../os/private-files';
import { checkDbPath, ensureFolder, followLinks, inFolder } from './db-path';
import { acquireLock } from './lock';
import { Persistence } from './persistence';
import { recover } from './recover';
import { contentRefs } from './queries';
import { setMeta } from './schema';
import { StateDb } from './state-db';
import type { StateDbOptions } from './types';
import { loadSqlJs } from './wasm';

const quiet: Logger = { error() {}, warn() {}, info() {}, debug() {} };

export const DEFAULT_IDLE_MS = 2000;
export const DEFAULT_FOLD_JOURNAL_BYTES = 4 * 1024 * 1024;

export function journalPath(file: string): string {
  return `${file}.journal`;
}

/** Content files a moved-aside journal refers to: kept, so the kept journal stays whole. */
function asideJournalRefs(file: string): string[] {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.journal.corrupt-`;
  const refs: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith(prefix));
  } catch {
    return refs;
  }
  for (const n of names) {
    try {
      for (const m of fs.readFileSync(path.join(dir, n), 'latin1').matchAll(/"sha256":"([0-9a-f]{64})"/g)) refs.push(m[1]);
    } catch {
      // a folder or unreadable: its references cannot be known; nothing is removed below then
      return ['*'];
    }
  }
  return refs;
}

export async function openStateDb(opts: StateDbOptions): Promise<StateDb> {
  const file = followLinks(opts.file);
  const log = opts.log ?? quiet;
  const now = opts.now ?? Date.now;
  const readOnly = opts.readOnly === true;
  const existed = checkDbPath(file, { readOnly }).exists;
  const SQL = await loadSqlJs(opts.wasmPath);
  const journalFile = journalPath(file);
  const content = new ContentFiles(file);
  const notices: string[] = [];
  const ctx = { SQL, file, journalFile, contentDir: content.dir, log, notices, now, readOnly };
  if (readOnly) {
    const r = recover(ctx);
    for (const n of notices) log.warn(`state.db: ${n}`);
    return new StateDb({ file, db: r.db, persistence: null, seq: r.seq, notices, now, release: () => {}, log, content });
  }
  ensureFolder(file);
  const release = opts.lock === false ? () => {} : inFolder(file, () => acquireLock(file));
  try {
    removeStaleTemps(file);
    const r = recover(ctx);
    if (existed) narrowMode(file, PRIVATE_FILE_MODE); // Snowpea's own file (recover refuses others)
    narrowMode(content.dir, PRIVATE_DIR_MODE);
    let journal: JournalWriter;
    try {
      if (r.mustSnapshot) {
        setMeta(r.db, 'journal_seq', r.seq);
        inFolder(file, () => writeFileAtomicSync(file, r.db.export()));
        fs.rmSync(journalFile, { force: true });
      }
      journal = inFolder(file, () => new JournalWriter(journalFile));
      const keep = r.mustSnapshot ? 0 : r.journalBytes; // cuts a torn last line
      if (journal.size > keep) journal.truncate(keep);
    } catch (e) {
      r.db.close();
      throw e;
    }
    for (const n of notices) log.warn(`state.db: ${n}`);
    // Content of deleted sessions and of rounds never committed; kept after any recovery, to be safe.
    const aside = asideJournalRefs(file);
    if (!notices.length && !aside.includes('*')) {
      const removed = content.removeUnreferenced(new Set([...contentRefs(r.db), ...aside]));
      if (removed) log.info(`state.db: removed ${removed} unreferenced content file(s)`);
    }
    const persistence = new Persistence({
      db: r.db,
      file,
      journal,
      log,
      idleMs: opts.idleMs ?? DEFAULT_IDLE_MS,
      foldJournalBytes: opts.foldJournalBytes ?? DEFAULT_FOLD_JOURNAL_BYTES,
      dirty: r.dirty && !r.mustSnapshot,
      snapshotBytes: fs.statSync(file).size,
      content,
      seq: r.seq,
    });
    return new StateDb({ file, db: r.db, persistence, seq: r.seq, notices, now, release, log, content });
  } catch (e) {
    release();
    throw e;
  }
}
