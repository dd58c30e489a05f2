/**
 * The shadow repository of one workspace: where it lives, how it is made, and the work tree's
 * current state as a tree (through a copy of the shadow's index, so two processes never fight
 * over index.lock and the stat cache still spares re-reading unchanged files).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BYTE_EXACT_ATTRIBUTES, nulList, shadowGit, type ShadowRepo } from './shadow-git';
import { addArgs, addPathspecInput, lsFilesArgs, rulesKey, type TreeRules } from './tree-rules';

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
  return keepOutPaths(root, [dir]).map((rel) => `/${rel.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}/`);
}

/** Those of `dirs` that lie inside `root`, relative to it and `/`-separated. */
export function keepOutPaths(root: string, dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => {
    const rel = path.relative(root, realOr(dir));
    if (!rel || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return [];
    return [rel.split(path.sep).join('/')];
  });
}

/**
 * Runs `fn` with a private copy of the shadow's index that `git add -A` has brought up to the
 * work tree under `rules`, and the tree it stands for. `keep`: the copy becomes the shadow's
 * index afterwards (a fresher stat cache); otherwise it is dropped. The shadow's index is copied
 * only when it was built under the same rules (an entry another rule took would linger).
 */
export async function withWorkTreeIndex<T>(repo: ShadowRepo, signal: AbortSignal, keep: boolean, rules: TreeRules, fn: (index: string, tree: string) => Promise<T>): Promise<T> {
  const shared = path.join(repo.gitDir, 'index');
  const index = path.join(repo.gitDir, `index-${process.pid}-${randomBytes(4).toString('hex')}`);
  const key = rulesKey(rules);
  try {
    // Timestamps kept: git's racy-entry check compares file times with the index's own.
    if (fs.existsSync(shared) && indexRules(repo) === key) await fs.promises.cp(shared, index, { preserveTimestamps: true });
    if (rules.notHeld.length) await shadowGit(repo, ['update-index', '--force-remove', '-z', '--stdin'], { signal, index, input: rules.notHeld.join('\0') + '\0' });
    await shadowGit(repo, await addArgs(repo, rules), { signal, index, input: addPathspecInput(rules, await nestedRepos(repo, rules, index, signal)) });
    const tree = (await shadowGit(repo, ['write-tree'], { signal, index })).trim();
    const result = await fn(index, tree);
    if (keep) {
      await fs.promises.rename(index, shared);
      await fs.promises.writeFile(path.join(repo.gitDir, INDEX_RULES), `${key}\n`);
    }
    return result;
  } finally {
    await fs.promises.rm(index, { force: true });
  }
}

/** Beside the shadow's index: the rules it was built under. */
const INDEX_RULES = 'snowpea-index-rules';

/** The rules the shadow's index was built under; an index from before coverage was Snowpea's was built under the .gitignore alone. */
export function indexRules(repo: ShadowRepo): string {
  try {
    return fs.readFileSync(path.join(repo.gitDir, INDEX_RULES), 'utf8').trim();
  } catch {
    return rulesKey({ mode: 'gitignore', excludes: [], keepOut: [], notHeld: [] });
  }
}

/** Nested repositories not yet seen: a nested repository is its own (git would record it as a gitlink, or fail on one without commits). */
async function nestedRepos(repo: ShadowRepo, rules: TreeRules, index: string, signal: AbortSignal): Promise<string[]> {
  const others = nulList(await shadowGit(repo, await lsFilesArgs(repo, rules, false), { signal, index }));
  return others.filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1));
}

/** Pathspecs for exactly these files (no glob or magic in their names), NUL-separated for `--pathspec-from-file`. */
export function literalPathspecs(paths: readonly string[]): string {
  return paths.map((p) => `:(literal)${p}\0`).join('');
}
