import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { globFilter, printedPath } from './match-paths';
import type { GrepBackend, GrepMatch } from './grep-types';
import { ripgrepStateExcludes } from './snowpea-state';

let cached: string | null | undefined;
let bundled: string | null = null;
let packaged: string | null | undefined;

/**
 * A ripgrep that ships with the host (VS Code's `@vscode/ripgrep`), used when none is on PATH.
 * Without one (and without rg on PATH) grep runs the JS fallback.
 */
export function setBundledRipgrep(rg: string | null): void {
  bundled = rg;
}

/**
 * The `rg` executable on PATH, else the host's bundled one, else the one of an installed
 * `@vscode/ripgrep-<platform>-<arch>` package, or null. PATH and the package are looked up once
 * (`refresh` looks again).
 */
export function findRipgrep(refresh = false): string | null {
  if (cached === undefined || refresh) cached = onPath();
  if (packaged === undefined || refresh) packaged = packagedRipgrep();
  return cached ?? bundled ?? packaged;
}

function executable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function onPath(): string | null {
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd'] : ['rg'];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const n of names) {
      const p = path.join(dir, n);
      if (executable(p)) return p;
    }
  }
  return null;
}

/**
 * rg from `@vscode/ripgrep`'s per-platform npm package, which carries the binary in its tarball
 * (no download at install time), when it is installed next to Snowpea; else null.
 */
export function packagedRipgrep(platform: string = process.platform, arch: string = process.arch, paths?: string[]): string | null {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  try {
    const p = require.resolve(`@vscode/ripgrep-${platform}-${arch}/bin/${exe}`, paths ? { paths } : undefined);
    return executable(p) ? p : null;
  } catch {
    return null;
  }
}

/** ripgrep, configured to see the same files as the JS fallback: .gitignore honoured (repo or not), hidden files in, .git and Snowpea's state out. */
export function makeRipgrepBackend(rg: string): GrepBackend {
  return (q) =>
    new Promise((resolve) => {
      const rel = printedPath(q.root, q.base);
      const args = ['--no-config', '--line-number', '--no-heading', '--with-filename', '--null', '--color', 'never'];
      args.push('--no-require-git', '--no-ignore-dot', '--hidden', '--glob', '!.git', '--sort', 'path', '--crlf');
      for (const g of ripgrepStateExcludes(q.root)) args.push('--glob', g);
      args.push(q.ignoreCase ? '--ignore-case' : '--case-sensitive');
      // The model's glob is applied to rg's output, not passed as --glob: rg's globs override .gitignore.
      const keep = globFilter(q.glob);
      args.push('-e', q.pattern, '--', rel);
      const child = spawn(rg, args, { cwd: q.root, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      const matches: GrepMatch[] = [];
      let total = 0;
      let limited = false;
      let partial = '';
      let stderr = '';
      const decoder = new StringDecoder('utf8');
      const onLine = (line: string) => {
        const nul = line.indexOf('\0');
        if (nul < 0) return;
        const colon = line.indexOf(':', nul);
        const file = line.slice(0, nul).replace(/^\.\//, '');
        if (limited || !keep(file)) return;
        // One match past the limit says "more than maxResults", as the JS fallback does: rg is stopped there.
        if (++total > q.maxResults) {
          limited = true;
          child.kill('SIGKILL');
          return;
        }
        matches.push({ file, line: Number(line.slice(nul + 1, colon)), text: line.slice(colon + 1).replace(/\r$/, '') });
      };
      child.stdout.on('data', (b: Buffer) => {
        const parts = (partial + decoder.write(b)).split('\n');
        partial = parts.pop() ?? '';
        parts.forEach(onLine);
      });
      child.stderr.on('data', (b: Buffer) => {
        if (stderr.length < 4000) stderr += b.toString('utf8');
      });
      const onAbort = () => child.kill('SIGKILL');
      q.signal.addEventListener('abort', onAbort, { once: true });
      child.on('error', (e) => {
        q.signal.removeEventListener('abort', onAbort);
        resolve({ ok: false, badPattern: `ripgrep could not run: ${e.message}` });
      });
      child.on('close', (code) => {
        q.signal.removeEventListener('abort', onAbort);
        if (partial) onLine(partial + decoder.end());
        if (limited) return resolve({ ok: true, matches, total, limitReached: {} });
        if (code === 2 && total === 0 && /regex|parse error|syntax/i.test(stderr)) {
          resolve({ ok: false, badPattern: stderr.trim() });
          return;
        }
        const warning = code === 2 && stderr.trim() ? stderr.trim().split('\n').slice(0, 3).join('; ') : undefined;
        resolve({ ok: true, matches, total, warning });
      });
    });
}
