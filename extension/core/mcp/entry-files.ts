/**
 * The workspace files a stdio MCP server will run, found the way its runtime finds them, so a
 * consent covers the code and not only the command line (red team N4, the MCPoison pattern):
 * - node/bun/deno/tsx `server`: Node's resolution of an extension-less name (server.js,
 *   server/index.js, a package.json "main"), then every relative `require`/`import` it makes;
 * - python `-m pkg.mod` (or a script path): the module file or package (`__main__.py`), then its
 *   local imports;
 * - npx/bunx/`npm exec`/`pnpm dlx` `<package>`: a copy in the workspace's `node_modules` (which
 *   npx runs instead of downloading), its `bin` entry and the package's files;
 * - a command that is itself a workspace file (`./run.sh`).
 * Only regular files whose real path is inside the workspace count, and the walk is bounded.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Most files one server's walk collects, and the largest file it reads for imports. */
export const MAX_LOADED_FILES = 400;
const MAX_SCANNED_BYTES = 2 * 1024 * 1024;

export interface LoadedFiles {
  /** The file the runtime starts (real path), when it is in the workspace. */
  entry?: string;
  /** How it is reached, for the consent text: `npx` runs a workspace copy, say. */
  via?: 'npx' | 'node' | 'python' | 'command';
  /** Every workspace file found (real paths, the entry first). */
  files: string[];
  /** The walk stopped at MAX_LOADED_FILES. */
  truncated: boolean;
}

const JS_EXT = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx', '.json'];
const JS_RUNTIMES = /^(node|nodejs|bun|deno|tsx|ts-node|esno)$/;
const PY_RUNTIMES = /^(python|python3(\.\d+)?|py|pypy3?)$/;
const PACKAGE_RUNNERS = /^(npx|bunx|pnpx)$/;
/** Node flags that take a value (the value is not the entry). */
const NODE_VALUE_FLAGS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-e', '--eval', '-p', '--print', '--env-file', '--conditions', '-C']);

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The real path of a regular file inside the workspace, else undefined. */
function workspaceFile(root: string, p: string): string | undefined {
  try {
    const real = fs.realpathSync(p);
    return inside(root, real) && fs.statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Node's resolution of a path: the file, with an extension, a folder's package.json main or index. */
function resolveNodePath(root: string, p: string): string | undefined {
  const direct = workspaceFile(root, p);
  if (direct) return direct;
  for (const ext of JS_EXT) {
    const f = workspaceFile(root, p + ext);
    if (f) return f;
  }
  const pkg = readJson(path.join(p, 'package.json'));
  if (pkg && typeof pkg.main === 'string') {
    const main = resolveNodePath(root, path.join(p, pkg.main));
    if (main) return main;
  }
  for (const ext of JS_EXT) {
    const f = workspaceFile(root, path.join(p, `index${ext}`));
    if (f) return f;
  }
  return undefined;
}

/** Relative specifiers a JavaScript/TypeScript file loads (require, import, import(), export from). */
function jsImports(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s+|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;
  for (const m of text.matchAll(re)) out.push(m[2]);
  return out;
}

/** Module names a Python file imports (`import a.b`, `from a.b import c`, `from . import x`). */
function pyImports(text: string): Array<{ module: string; level: number; names: string[] }> {
  const out: Array<{ module: string; level: number; names: string[] }> = [];
  for (const m of text.matchAll(/^\s*from\s+(\.*)([\w.]*)\s+import\s+([\w*, ()]+)/gm)) out.push({ level: m[1].length, module: m[2], names: m[3].replace(/[()]/g, '').split(',').map((s) => s.trim()).filter(Boolean) });
  for (const m of text.matchAll(/^\s*import\s+([\w., ]+)/gm)) for (const mod of m[1].split(',')) out.push({ level: 0, module: mod.trim().split(/\s+as\s+/)[0], names: [] });
  return out;
}

/** A Python module as a file under `base` (mod.py, or a package's __init__.py / __main__.py). */
function pyModuleFiles(root: string, base: string, module: string, main = false): string[] {
  const rel = module.split('.').filter(Boolean);
  const p = path.join(base, ...rel);
  const file = workspaceFile(root, `${p}.py`);
  if (file) return [file];
  return [workspaceFile(root, path.join(p, '__init__.py')), main ? workspaceFile(root, path.join(p, '__main__.py')) : undefined].filter((f): f is string => !!f);
}

/** Follows the local imports of the entry files, breadth first, within the bound. */
function walk(root: string, starts: string[], pyBases: string[], acc: Set<string>): boolean {
  const queue = [...starts];
  while (queue.length) {
    const file = queue.shift()!;
    if (acc.has(file)) continue;
    if (acc.size >= MAX_LOADED_FILES) return true;
    acc.add(file);
    let text: string;
    try {
      if (fs.statSync(file).size > MAX_SCANNED_BYTES) continue;
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const dir = path.dirname(file);
    if (/\.(c|m)?[jt]sx?$/.test(file)) {
      for (const spec of jsImports(text)) {
        const hit = resolveNodePath(root, path.resolve(dir, spec));
        if (hit) queue.push(hit);
      }
    } else if (/\.pyw?$/.test(file)) {
      for (const imp of pyImports(text)) {
        const bases = imp.level > 0 ? [path.resolve(dir, ...Array(imp.level - 1).fill('..'))] : [dir, ...pyBases];
        for (const base of bases) {
          const mods = imp.module ? pyModuleFiles(root, base, imp.module) : [];
          const subs = imp.names.flatMap((n) => (n === '*' ? [] : pyModuleFiles(root, base, imp.module ? `${imp.module}.${n}` : n)));
          queue.push(...mods, ...subs);
        }
      }
    }
  }
  return false;
}

/** Every file of a package folder (no nested node_modules), within the bound. */
function packageFiles(root: string, dir: string, acc: Set<string>): boolean {
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== '.git') stack.push(p);
      } else if (e.isFile()) {
        const f = workspaceFile(root, p);
        if (!f) continue;
        if (acc.size >= MAX_LOADED_FILES) return true;
        acc.add(f);
      }
    }
  }
  return false;
}

/** `@scope/name@1.2` -> `@scope/name`; `name@latest` -> `name`. */
function packageName(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at > 0 ? spec.slice(0, at) : spec;
}

/** The workspace copy of a package npx would run: its folder and its bin entry. */
function workspacePackage(root: string, cwd: string, spec: string): { dir: string; bin?: string } | undefined {
  const name = packageName(spec);
  for (let d = cwd; inside(root, d) || d === root; d = path.dirname(d)) {
    const dir = path.join(d, 'node_modules', name);
    const pkg = readJson(path.join(dir, 'package.json'));
    if (pkg) {
      const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin && typeof pkg.bin === 'object' ? ((pkg.bin as Record<string, string>)[name.split('/').pop()!] ?? Object.values(pkg.bin as Record<string, string>)[0]) : undefined;
      const entry = bin ? resolveNodePath(root, path.join(dir, bin)) : resolveNodePath(root, dir);
      return { dir, bin: entry };
    }
    if (d === root) break;
  }
  return undefined;
}

/** The first argument that is not a flag (nor a flag's value). */
function firstOperand(args: string[], valueFlags: Set<string> = new Set()): { value?: string; index: number } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return { value: args[i + 1], index: i + 1 };
    if (a.startsWith('-')) {
      if (valueFlags.has(a)) i++;
      continue;
    }
    return { value: a, index: i };
  }
  return { index: -1 };
}

/** What a stdio server runs from the workspace (nothing when its code lies elsewhere). */
export function serverLoadedFiles(command: string, args: string[], cwd: string, workspaceRoot: string): LoadedFiles {
  let root: string;
  try {
    root = fs.realpathSync(workspaceRoot);
  } catch {
    return { files: [], truncated: false };
  }
  const acc = new Set<string>();
  const tool = path.basename(command).replace(/\.(exe|cmd)$/i, '').toLowerCase();
  const done = (entry: string | undefined, via: LoadedFiles['via'], truncated: boolean): LoadedFiles => ({ ...(entry ? { entry, via } : {}), files: [...acc], truncated });

  let runner = tool;
  let rest = args;
  // `npm exec pkg`, `pnpm dlx pkg`, `yarn dlx pkg` run a package like npx does.
  if ((tool === 'npm' && args[0] === 'exec') || ((tool === 'pnpm' || tool === 'yarn') && args[0] === 'dlx')) {
    runner = 'npx';
    rest = args.slice(1);
  }
  if (PACKAGE_RUNNERS.test(runner) || runner === 'npx') {
    const spec = firstOperand(rest, new Set(['-p', '--package', '-c', '--call'])).value;
    const pkg = spec ? workspacePackage(root, cwd, spec) : undefined;
    if (!pkg) return done(undefined, undefined, false);
    const truncated = packageFiles(root, pkg.dir, acc);
    if (pkg.bin) {
      acc.delete(pkg.bin);
      const files = [pkg.bin, ...acc];
      acc.clear();
      files.forEach((f) => acc.add(f));
    }
    return done(pkg.bin, 'npx', truncated);
  }
  if (JS_RUNTIMES.test(tool)) {
    const op = firstOperand(args, NODE_VALUE_FLAGS);
    const entry = op.value ? resolveNodePath(root, path.resolve(cwd, op.value)) : undefined;
    if (!entry) return done(undefined, undefined, false);
    return done(entry, 'node', walk(root, [entry], [], acc));
  }
  if (PY_RUNTIMES.test(tool) || tool === 'uv') {
    const pyArgs = tool === 'uv' ? args.slice(args.indexOf('run') + 1) : args;
    const m = pyArgs.indexOf('-m');
    const starts = m >= 0 && pyArgs[m + 1] ? pyModuleFiles(root, cwd, pyArgs[m + 1], true) : (() => {
      const op = firstOperand(pyArgs, new Set(['-c', '-W', '-X']));
      const f = op.value ? workspaceFile(root, path.resolve(cwd, op.value)) : undefined;
      return f ? [f] : [];
    })();
    if (!starts.length) return done(undefined, undefined, false);
    // A package run with -m starts at __main__.py; list it first.
    const ordered = [...starts].sort((a, b) => Number(b.endsWith('__main__.py')) - Number(a.endsWith('__main__.py')));
    return done(ordered[0], 'python', walk(root, ordered, [cwd], acc));
  }
  const own = workspaceFile(root, path.resolve(cwd, command));
  if (own) {
    acc.add(own);
    return done(own, 'command', false);
  }
  return done(undefined, undefined, false);
}
