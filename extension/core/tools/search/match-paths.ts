import * as path from 'node:path';
import picomatch from 'picomatch';

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
