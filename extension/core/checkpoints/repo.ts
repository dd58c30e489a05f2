/**
 * The shadow repository of one workspace: where it lives, how it is made, and the work tree's
 * current state as a tree (through a copy of the shadow's index, so two processes never fight
 * over index.lock and the stat cache still spares re-reading unchanged files).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BYTE_EXACT_ATTRIBUTES, nulList, shadowGit, type ShadowRepo } from './shadow-git';

/** `<dir>/<hash of the workspace's real path>`: the shadow repository of a workspace. */
export function shadowDirFor(dir: string, workspaceRoot: string): string {
  return path.join(dir, createHash('sha256').update(realOr(workspaceRoot)).digest('hex').slice(0, 16));
}

export function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

export function repoExists(repo: ShadowRepo): boolean {
  return fs.existsSync(path.join(repo.gitDir, 'HEAD'));
}

/**
 * Makes the shadow repository when it is missing, and (re)writes the attributes and excludes
 * that keep files byte-exact and out of checkpoints: `.git`, and each of `keepOut` (Snowpea's
 * own folders: the shadow repositories, state.db's folder) that lies inside the workspace.
 */
export async function ensureRepo(repo: ShadowRepo, keepOut: readonly string[], signal: AbortSignal): Promise<void> {
  if (!repoExists(repo)) {
    await fs.promises.mkdir(repo.gitDir, { recursive: true, mode: 0o700 });
    await shadowGit(repo, ['init', '--quiet'], { signal });
    await fs.promises.writeFile(path.join(repo.gitDir, 'snowpea-workspace'), `${repo.workTree}\n`);
  }
  const info = path.join(repo.gitDir, 'info');
  await fs.promises.mkdir(info, { recursive: true });
  await fs.promises.writeFile(path.join(info, 'attributes'), BYTE_EXACT_ATTRIBUTES);
  await fs.promises.writeFile(path.join(info, 'exclude'), ['.git', ...keepOut.flatMap((d) => insidePattern(repo.workTree, d))].join('\n') + '\n');
}

/** An exclude pattern for `dir` when it is inside `root` (anchored, its characters taken literally). */
function insidePattern(root: string, dir: string): string[] {
  const rel = path.relative(root, realOr(dir));
  if (!rel || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return [];
  return [`/${rel.split(path.sep).join('/').replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}/`];
}

/**
 * Runs `fn` with a private copy of the shadow's index that `git add -A` has brought up to the
 * work tree, and the tree it stands for. `keep`: the copy becomes the shadow's index afterwards
 * (a fresher stat cache); otherwise it is dropped.
 */
export async function withWorkTreeIndex<T>(repo: ShadowRepo, signal: AbortSignal, keep: boolean, fn: (index: string, tree: string) => Promise<T>): Promise<T> {
  const shared = path.join(repo.gitDir, 'index');
  const index = path.join(repo.gitDir, `index-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    // Timestamps kept: git's racy-entry check compares file times with the index's own.
    if (fs.existsSync(shared)) await fs.promises.cp(shared, index, { preserveTimestamps: true });
    await shadowGit(repo, ['add', '--all', '--pathspec-from-file=-', '--pathspec-file-nul'], { signal, index, input: await addPathspecs(repo, index, signal) });
    const tree = (await shadowGit(repo, ['write-tree'], { signal, index })).trim();
    const result = await fn(index, tree);
    if (keep) await fs.promises.rename(index, shared);
    return result;
  } finally {
    await fs.promises.rm(index, { force: true });
  }
}

/**
 * What `git add --all` takes: the whole work tree except nested repositories not yet seen (a
 * nested repository is its own; git would record it as a gitlink, or fail on one without commits).
 */
async function addPathspecs(repo: ShadowRepo, index: string, signal: AbortSignal): Promise<string> {
  const others = nulList(await shadowGit(repo, ['ls-files', '-z', '--others', '--exclude-standard'], { signal, index }));
  const nested = others.filter((p) => p.endsWith('/')).map((p) => `:(exclude,literal)${p.slice(0, -1)}`);
  return [':(literal).', ...nested].join('\0') + '\0';
}

/** Pathspecs for exactly these files (no glob or magic in their names), NUL-separated for `--pathspec-from-file`. */
export function literalPathspecs(paths: readonly string[]): string {
  return paths.map((p) => `:(literal)${p}\0`).join('');
}
