/**
 * The rules a work-tree snapshot is built under, as git arguments: which files `ls-files`
 * lists and `git add` takes. The same rules build a checkpoint and, at a restore or a diff,
 * the work tree it is compared with, so a file the checkpoint could not hold never looks new.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { excludePathspecs, type CoverageMode } from './coverage';
import type { ShadowRepo } from './shadow-git';

export interface TreeRules {
  mode: CoverageMode;
  /** Snowpea's excludes (gitignore syntax). */
  excludes: readonly string[];
  /** Snowpea's own folders inside the workspace (relative, `/`-separated): never taken. */
  keepOut: readonly string[];
  /** Files left out by name (over the per-file size limit). */
  notHeld: readonly string[];
}

/** Names the rules an index was built under: an index built under others is not reused (its entries would linger). */
export function rulesKey(r: TreeRules): string {
  return `${r.mode} ${hash([...r.excludes, '', ...r.keepOut].join('\n'))}`;
}

/** A file in the shadow repository holding the rules' excludes (written when missing; named by its content). */
async function excludesFile(repo: ShadowRepo, excludes: readonly string[]): Promise<string> {
  const text = excludes.join('\n') + '\n';
  const file = path.join(repo.gitDir, `snowpea-excludes-${hash(text)}`);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, text);
    await fs.promises.rename(tmp, file);
  }
  return file;
}

/** `-c core.excludesFile=…` with the rules' excludes: git reads them with the .gitignore files (`gitignore` mode). */
export async function excludesConfig(repo: ShadowRepo, excludes: readonly string[]): Promise<string[]> {
  return ['-c', `core.excludesFile=${await excludesFile(repo, excludes)}`];
}

/**
 * `git ls-files` of the files the rules take (`--cached` too when asked). In `all` mode the
 * repository's .gitignore files are not read: only the shadow's info/exclude and the rules' excludes.
 */
export async function lsFilesArgs(repo: ShadowRepo, r: TreeRules, cached: boolean): Promise<string[]> {
  const file = await excludesFile(repo, r.excludes);
  const rules = r.mode === 'gitignore' ? ['--exclude-standard'] : [`--exclude-from=${path.join(repo.gitDir, 'info', 'exclude')}`, `--exclude-from=${file}`];
  return ['-c', `core.excludesFile=${file}`, 'ls-files', '-z', ...(cached ? ['--cached', '--deduplicate'] : []), '--others', ...rules];
}

/**
 * `git add --all` of the work tree under the rules; its pathspecs (from stdin) are `nested`
 * (repositories git must not enter) plus what `pathspecs` gives. `all` mode adds with `--force`
 * (the .gitignore is not asked) and so leaves Snowpea's excludes and folders out by pathspec.
 */
export async function addArgs(repo: ShadowRepo, r: TreeRules): Promise<string[]> {
  return [...(await excludesConfig(repo, r.excludes)), 'add', '--all', ...(r.mode === 'all' ? ['--force'] : []), '--pathspec-from-file=-', '--pathspec-file-nul'];
}

/** The NUL-separated pathspecs `addArgs` reads: the whole tree minus nested repositories, excludes and files not held. */
export function addPathspecInput(r: TreeRules, nested: readonly string[]): string {
  const specs = [
    ':(literal).',
    ...nested.map((p) => `:(exclude,literal)${p}`),
    ...r.notHeld.map((p) => `:(exclude,literal)${p}`),
    ...(r.mode === 'all' ? [...excludePathspecs(r.excludes), ...r.keepOut.map((p) => `:(exclude,literal)${p}`)] : []),
  ];
  return specs.join('\0') + '\0';
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 12);
}
