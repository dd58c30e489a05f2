/**
 * The JS fallback's search loop. It runs inside the grep worker (grep-worker.ts), so a pattern
 * that backtracks for minutes or a huge file never blocks the caller's thread: the caller stops
 * the worker at its deadline. Files over the size limit are skipped without being read.
 */
import * as fs from 'node:fs';
import { looksBinary } from '../text';
import type { GrepMatch, GrepQuery } from './grep-types';
import { globFilter, printedPath } from './match-paths';
import { walkFiles } from './walk';

/** A grep query as the worker gets it (no signal: the caller stops the worker), with the size limit. */
export type ScanJob = Omit<GrepQuery, 'signal'> & {
  /** Files larger than this are skipped (counted, not read). */
  maxFileBytes: number;
};

/** What the worker reports, as it goes: each message adds to the previous ones. */
export type ScanMessage =
  | {
      t: 'progress' | 'done';
      /** The file about to be searched (progress only). */
      current?: string;
      /** New matches to keep (the first maxResults in all). */
      matches: GrepMatch[];
      /** New matching lines, kept or not. */
      found: number;
      /** Files fully searched so far. */
      searched: number;
      /** A file just skipped for its size. */
      skipped?: string;
      /** done only: the search stopped at maxResults + 1 matching lines; the total is at least that. */
      limitReached?: boolean;
    }
  | { t: 'bad-pattern'; message: string }
  | { t: 'failed'; message: string };

type ReadResult = { bytes: Buffer } | { tooLarge: true } | { unreadable: true };

/** Reads a regular file of at most `max` bytes; larger (or growing past it) and special files are not read whole. */
async function readCapped(abs: string, max: number): Promise<ReadResult> {
  let fh: fs.promises.FileHandle | undefined;
  try {
    fh = await fs.promises.open(abs, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const st = await fh.stat();
    if (!st.isFile()) return { unreadable: true };
    if (st.size > max) return { tooLarge: true };
    const buf = Buffer.alloc(Math.min(st.size, max) + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got > max) return { tooLarge: true };
      if (got === buf.length) break;
    }
    return { bytes: buf.subarray(0, got) };
  } catch {
    return { unreadable: true };
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** Searches like ripgrep (lines split on \n, a trailing \r dropped), posting progress before each file. */
export async function scan(job: ScanJob, post: (m: ScanMessage) => void): Promise<void> {
  let re: RegExp;
  try {
    re = new RegExp(job.pattern, job.ignoreCase ? 'i' : '');
  } catch (e) {
    post({ t: 'bad-pattern', message: (e as Error).message });
    return;
  }
  const keep = globFilter(job.glob);
  let searched = 0;
  let pending: GrepMatch[] = [];
  let found = 0;
  let skipped: string | undefined;
  let foundInAll = 0;
  const flush = (t: 'progress' | 'done', current?: string, limitReached?: boolean) => {
    post({ t, current, matches: pending, found, searched, skipped, ...(limitReached ? { limitReached } : {}) });
    pending = [];
    found = 0;
    skipped = undefined;
  };
  for await (const abs of walkFiles(job.base, { root: job.root })) {
    const file = printedPath(job.root, abs);
    if (!keep(file)) continue;
    flush('progress', file);
    const read = await readCapped(abs, job.maxFileBytes);
    if ('tooLarge' in read) skipped = file;
    if (!('bytes' in read)) continue;
    searched++;
    if (looksBinary(read.bytes)) continue;
    const lines = read.bytes.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
      if (!re.test(text)) continue;
      found++;
      // One match past the limit is enough to say "more than maxResults": the rest is not scanned.
      if (++foundInAll > job.maxResults) return flush('done', undefined, true);
      pending.push({ file, line: i + 1, text });
    }
  }
  flush('done');
}
