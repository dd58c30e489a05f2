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
 * The shadow repositories in `dir` other than `own` that hold checkpoints of `sessionId` (its
 * loose refs, or its packed ones): a session's checkpoints stay findable after its workspace was
 * moved or deleted (reliability N11). Read from the files, without running git.
 */
export function othersHolding(dir: string, own: string, sessionId: string): ShadowRepo[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const prefix = `refs/snowpea/${sessionId}/`;
  const found: ShadowRepo[] = [];
  for (const name of names) {
    const gitDir = path.join(dir, name);
    if (gitDir === own || !/^[0-9a-f]{16}$/.test(name)) continue;
    const holds = fs.existsSync(path.join(gitDir, prefix)) || readOr(path.join(gitDir, 'packed-refs')).includes(` ${prefix}`);
    if (!holds) continue;
    found.push({ gitDir, workTree: readOr(path.join(gitDir, 'snowpea-workspace')).split('\n')[0] || gitDir });
  }
  return found;
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
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
 * work tree under `rules`, and the tree it stands for (with `commitMessage`, also a commit of
 * that tree). `keep`: the copy becomes the shadow's index afterwards (a fresher stat cache);
 * otherwise it is dropped. The shadow's index is copied only when it was built under the same
 * rules (an entry another rule took would linger).
 *
 * Every object git writes on the way goes to an incoming folder of this call first and joins the
 * store only once the tree (and commit) are whole, just before `fn`: a failure (a full disk,
 * reliability N9) or an abort removes the incoming folder, so the store holds nothing of a
 * checkpoint that was not taken. What a killed process leaves is removed at the next call (N8).
 */
export async function withWorkTreeIndex<T>(
  repo: ShadowRepo,
  signal: AbortSignal,
  keep: boolean,
  rules: TreeRules,
  fn: (index: string, tree: string, commit: string | undefined) => Promise<T>,
  commitMessage?: string,
): Promise<T> {
  clearLeftovers(repo);
  const shared = path.join(repo.gitDir, 'index');
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const index = path.join(repo.gitDir, `index-${tag}`);
  const incoming = path.join(repo.gitDir, `incoming-${tag}`);
  const key = rulesKey(rules);
  try {
    // Timestamps kept: git's racy-entry check compares file times with the index's own.
    if (fs.existsSync(shared) && indexRules(repo) === key) await fs.promises.cp(shared, index, { preserveTimestamps: true });
    await fs.promises.mkdir(incoming, { mode: 0o700 });
    const run = { signal, index, incoming };
    if (rules.notHeld.length) await shadowGit(repo, ['update-index', '--force-remove', '-z', '--stdin'], { ...run, input: rules.notHeld.join('\0') + '\0' });
    await shadowGit(repo, await addArgs(repo, rules), { ...run, input: addPathspecInput(rules, await nestedRepos(repo, rules, index, signal)) });
    const tree = (await shadowGit(repo, ['write-tree'], run)).trim();
    const commit = commitMessage === undefined ? undefined : (await shadowGit(repo, ['commit-tree', tree, '-F', '-'], { ...run, input: commitMessage })).trim();
    await moveIncoming(incoming, path.join(repo.gitDir, 'objects'));
    const result = await fn(index, tree, commit);
    if (keep) {
      await fs.promises.rename(index, shared);
      await fs.promises.writeFile(path.join(repo.gitDir, INDEX_RULES), `${key}\n`);
    }
    return result;
  } finally {
    await fs.promises.rm(index, { force: true });
    await fs.promises.rm(`${index}.lock`, { force: true });
    await fs.promises.rm(incoming, { recursive: true, force: true });
  }
}

/**
 * Moves the objects of an incoming folder into the store's: loose objects first, then packs
 * (each `.idx` after its `.pack`, so no reader sees an index without its pack). An object the
 * store has already stays as it is.
 */
async function moveIncoming(from: string, to: string): Promise<void> {
  const names = await fs.promises.readdir(from);
  for (const dir of names.filter((n) => /^[0-9a-f]{2}$/.test(n))) {
    const target = path.join(to, dir);
    await fs.promises.mkdir(target, { recursive: true });
    for (const file of await fs.promises.readdir(path.join(from, dir))) {
      if (!/^[0-9a-f]{38,62}$/.test(file) || fs.existsSync(path.join(target, file))) continue;
      await fs.promises.rename(path.join(from, dir, file), path.join(target, file));
    }
  }
  if (!names.includes('pack')) return;
  const packs = (await fs.promises.readdir(path.join(from, 'pack'))).filter((n) => /^pack-[0-9a-f]+\.(pack|rev|idx)$/.test(n));
  const rank = (n: string) => (n.endsWith('.pack') ? 0 : n.endsWith('.rev') ? 1 : 2);
  await fs.promises.mkdir(path.join(to, 'pack'), { recursive: true });
  for (const n of packs.sort((a, b) => rank(a) - rank(b))) await fs.promises.rename(path.join(from, 'pack', n), path.join(to, 'pack', n));
}

/**
 * What a killed Snowpea process leaves in the shadow repository (reliability N8): its private
 * index (a whole copy of the index: megabytes for a large workspace) and git's lock beside it,
 * its incoming objects, its scratch folder for .gitignore checks, a half-written excludes file.
 * Each is named for its process; it goes once that process no longer runs (or is this one: every
 * call here runs one at a time, so none of ours is in use), or after a day whatever the pid says
 * (a pid reused by another program).
 */
export function clearLeftovers(repo: ShadowRepo): void {
  let names: string[];
  try {
    names = fs.readdirSync(repo.gitDir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const m = /^(?:index|incoming|ignore)-(\d+)-[0-9a-f]{8}(?:\.lock)?$/.exec(name) ?? /^snowpea-excludes-[0-9a-f]{12}\.(\d+)\.tmp$/.exec(name);
    if (!m) continue;
    const file = path.join(repo.gitDir, name);
    const pid = Number(m[1]);
    try {
      if (pid !== process.pid && processRuns(pid) && now - fs.lstatSync(file).mtimeMs < DAY_MS) continue;
      fs.rmSync(file, { recursive: true, force: true });
    } catch {
      // gone already, or not ours to remove: the next call tries again
    }
  }
}

const DAY_MS = 24 * 3600 * 1000;

/** A process with this pid runs (or exists under another user). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
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
