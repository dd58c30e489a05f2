import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { looksBinary } from '../text';
import type { GrepBackend, GrepMatch } from './grep-types';
import { walkFiles } from './walk';

/** Path as printed: relative to the root (posix) when inside it, else absolute. */
export function printedPath(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return abs;
  return rel.split(path.sep).join('/');
}

/** A glob filter with ripgrep's meaning: no slash matches the file name in any folder, `!` excludes. */
export function globFilter(glob: string | undefined): (printed: string) => boolean {
  if (!glob) return () => true;
  const negated = glob.startsWith('!');
  const pat = negated ? glob.slice(1) : glob;
  const m = picomatch(pat, { dot: true, basename: !pat.includes('/') });
  return negated ? (p) => !m(p) : (p) => m(p);
}

/** The fallback when ripgrep is not installed: JavaScript regular expressions over git-visible files. */
export const grepJs: GrepBackend = async (q) => {
  let re: RegExp;
  try {
    re = new RegExp(q.pattern, q.ignoreCase ? 'i' : '');
  } catch (e) {
    return { ok: false, badPattern: (e as Error).message };
  }
  const keep = globFilter(q.glob);
  const matches: GrepMatch[] = [];
  let total = 0;
  for await (const abs of walkFiles(q.base, { root: q.root, signal: q.signal })) {
    if (q.signal.aborted) break;
    const file = printedPath(q.root, abs);
    if (!keep(file)) continue;
    let bytes: Buffer;
    try {
      bytes = await fs.promises.readFile(abs);
    } catch {
      continue;
    }
    if (looksBinary(bytes)) continue;
    // Lines as ripgrep sees them: split on \n, a trailing \r dropped, no line after a final newline.
    const lines = bytes.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
      if (!re.test(text)) continue;
      total++;
      if (matches.length < q.maxResults) matches.push({ file, line: i + 1, text });
    }
  }
  return { ok: true, matches, total };
};
