/**
 * Which files that look created since a checkpoint it could not have held: a restore leaves
 * them alone (it never deletes what no checkpoint saved). Told from the rules the checkpoint
 * states: the files it names as over the size limit and, for one taken under the .gitignore,
 * what that checkpoint's own .gitignore files (not today's) excluded.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { safeRelative } from './changes';
import type { Coverage } from './coverage';
import { GitFailedError, nulList, shadowGit, type ShadowRepo } from './shadow-git';
import { excludesConfig } from './tree-rules';

export async function notHeldBy(repo: ShadowRepo, commit: string, coverage: Coverage, added: readonly string[], signal: AbortSignal): Promise<Set<string>> {
  // More files were over the limit than the checkpoint names: any of these may be one.
  if (coverage.notHeldTruncated) return new Set(added);
  const named = new Set(coverage.notHeld);
  const left = new Set(added.filter((p) => named.has(p)));
  const rest = added.filter((p) => !left.has(p));
  if (coverage.mode === 'gitignore' && rest.length) for (const p of await ignoredThen(repo, commit, coverage, rest, signal)) left.add(p);
  return left;
}

/** Those of `paths` the checkpoint's .gitignore files exclude: asked of git in a scratch work tree that holds only them. */
async function ignoredThen(repo: ShadowRepo, commit: string, coverage: Coverage, paths: readonly string[], signal: AbortSignal): Promise<string[]> {
  const scratch = path.join(repo.gitDir, `ignore-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await fs.promises.mkdir(scratch, { mode: 0o700 });
    const names = nulList(await shadowGit(repo, ['ls-tree', '-r', '-z', '--name-only', commit], { signal }));
    for (const name of names.filter((n) => path.posix.basename(n) === '.gitignore' && safeRelative(n))) {
      const text = await shadowGit(repo, ['cat-file', 'blob', `${commit}:${name}`], { signal });
      await fs.promises.mkdir(path.join(scratch, path.dirname(name)), { recursive: true });
      await fs.promises.writeFile(path.join(scratch, name), text);
    }
    const then: ShadowRepo = { gitDir: repo.gitDir, workTree: scratch };
    const args = [...(await excludesConfig(repo, coverage.excludes)), 'check-ignore', '--no-index', '-z', '--stdin'];
    try {
      return nulList(await shadowGit(then, args, { signal, input: paths.join('\0') + '\0' }));
    } catch (e) {
      if (e instanceof GitFailedError && e.exitCode === 1) return []; // none is ignored
      throw e;
    }
  } finally {
    await fs.promises.rm(scratch, { recursive: true, force: true });
  }
}
