/** openStateDb: lock the file, load and recover it, and hand back a ready StateDb. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../log';
import { ContentFiles } from './content-files';
import { removeStaleTemps, writeFileAtomicSync } from './files';
import { JournalWriter } from './journal-writer';
import { narrowMode, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './modes';
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

export async function openStateDb(opts: StateDbOptions): Promise<StateDb> {
  const file = path.resolve(opts.file);
  const log = opts.log ?? quiet;
  const now = opts.now ?? Date.now;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  narrowMode(file, PRIVATE_FILE_MODE);
  const SQL = await loadSqlJs(opts.wasmPath);
  const release = opts.lock === false ? () => {} : acquireLock(file);
  try {
    removeStaleTemps(file);
    const notices: string[] = [];
    const journalFile = journalPath(file);
    const content = new ContentFiles(file);
    narrowMode(content.dir, PRIVATE_DIR_MODE);
    const r = recover({ SQL, file, journalFile, contentDir: content.dir, log, notices, now });
    let journal: JournalWriter;
    try {
      if (r.mustSnapshot) {
        setMeta(r.db, 'journal_seq', r.seq);
        writeFileAtomicSync(file, r.db.export());
        fs.rmSync(journalFile, { force: true });
      }
      journal = new JournalWriter(journalFile);
      const keep = r.mustSnapshot ? 0 : r.journalBytes; // cuts a torn last line
      if (journal.size > keep) journal.truncate(keep);
    } catch (e) {
      r.db.close();
      throw e;
    }
    for (const n of notices) log.warn(`state.db: ${n}`);
    // Content of deleted sessions and of rounds never committed; kept after any recovery, to be safe.
    if (!notices.length) {
      const removed = content.removeUnreferenced(contentRefs(r.db));
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
