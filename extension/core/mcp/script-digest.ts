/**
 * The content of the workspace files a stdio server runs, as part of its definition hash: a
 * consent covers the script as it was, so editing `scripts/server.js` (or the envFile) asks again.
 * Looked at: the command, its first argument, any argument that names a script (.js, .py, .sh…),
 * the envFile, and every workspace file the server's runtime will load (entry-files.ts: Node's
 * resolution and relative imports, `python -m` modules and their imports, a workspace copy of an
 * npx package); each only when it is a regular file inside the workspace (real paths).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { serverLoadedFiles } from './entry-files';
import type { McpServerDef } from './types';

const SCRIPT_EXT = /\.(c?js|mjs|ts|mts|cts|py|pyw|sh|bash|zsh|ps1|bat|cmd|rb|pl|php|lua|jar)$/i;
/** Larger files are keyed by size and modification time instead of being read. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;
const MAX_ARGS = 64;

/** `${workspaceFolder}`-style variables that name the workspace; anything else is left unresolved (and the value skipped). */
function expand(value: string, root: string): string | undefined {
  const out = value.replace(/\$\{(workspaceFolder|workspaceRoot|pathSeparator|\/)\}/g, (_, v: string) => (v.startsWith('workspace') ? root : path.sep));
  return out.includes('${') ? undefined : out;
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function digestFile(file: string, size: number, mtimeMs: number): string {
  if (size > MAX_HASHED_BYTES) return `size ${size}, modified ${mtimeMs}`;
  const h = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1024 * 1024);
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return h.digest('hex');
}

/** The candidates as written, each with the folder it is relative to (the server's cwd; the envFile's is the workspace, as at start). */
function candidates(def: Pick<McpServerDef, 'command' | 'args' | 'envFile'>, cwd: string, root: string): Array<[string, string]> {
  const args = (def.args ?? []).slice(0, MAX_ARGS);
  const run = [def.command ?? '', ...args.filter((a, i) => i === 0 || SCRIPT_EXT.test(a))].filter(Boolean);
  const out: Array<[string, string]> = run.map((v) => [v, cwd]);
  if (def.envFile) out.push([def.envFile, root]);
  return out;
}

/** path (relative to the workspace) -> content digest, for the workspace files the definition runs or reads. */
export function workspaceScriptDigests(def: Pick<McpServerDef, 'transport' | 'command' | 'args' | 'envFile' | 'cwd'>, workspaceRoot: string | undefined): Record<string, string> {
  if (def.transport !== 'stdio' || !workspaceRoot) return {};
  let root: string;
  try {
    root = fs.realpathSync(workspaceRoot);
  } catch {
    return {};
  }
  const cwd = def.cwd ? expand(def.cwd, workspaceRoot) : workspaceRoot;
  const base = cwd === undefined ? workspaceRoot : path.resolve(workspaceRoot, cwd);
  const out: Record<string, string> = {};
  const key = (real: string) => path.relative(root, real).split(path.sep).join('/');
  const command = def.command ? expand(def.command, workspaceRoot) : undefined;
  const args = (def.args ?? []).slice(0, MAX_ARGS).map((a) => expand(a, workspaceRoot));
  if (command !== undefined && args.every((a): a is string => a !== undefined)) {
    const loaded = serverLoadedFiles(command, args, base, workspaceRoot);
    for (const real of loaded.files) {
      try {
        const st = fs.statSync(real);
        out[key(real)] = digestFile(real, st.size, st.mtimeMs);
      } catch {
        /* gone meanwhile */
      }
    }
    if (loaded.truncated) out['(more files than were read)'] = String(loaded.files.length);
  }
  for (const [written, from] of candidates(def, base, workspaceRoot)) {
    const value = expand(written, workspaceRoot);
    if (value === undefined) continue;
    try {
      const real = fs.realpathSync(path.resolve(from, value));
      if (!isInside(root, real)) continue;
      const st = fs.statSync(real);
      if (!st.isFile()) continue;
      out[key(real)] = digestFile(real, st.size, st.mtimeMs);
    } catch {
      /* not a file: nothing to key on */
    }
  }
  return out;
}
