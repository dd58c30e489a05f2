import * as fs from 'node:fs';
import * as path from 'node:path';
import { shadowGitRecords, type ShadowRepo } from './shadow-git';

const BATCH = 256;

/**
 * Bytes of the files a checkpoint would hold: those git sees in the work tree with the
 * workspace's ignore rules (.gitignore files, the shadow's info/exclude), nested repositories
 * and symlink targets left out. Read before anything is copied into the shadow repository; the
 * walk stops once the total passes `limit` (then the result is a lower bound above it).
 */
export async function workspaceBytes(repo: ShadowRepo, limit: number, signal: AbortSignal): Promise<number> {
  let total = 0;
  let batch: string[] = [];
  const add = async () => {
    const sizes = await Promise.all(
      batch.map((f) =>
        fs.promises.lstat(path.join(repo.workTree, f)).then(
          (st) => (st.isFile() ? st.size : 0),
          () => 0, // deleted since the last checkpoint
        ),
      ),
    );
    for (const s of sizes) total += s;
    batch = [];
  };
  for await (const file of shadowGitRecords(repo, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'], signal)) {
    batch.push(file);
    if (batch.length < BATCH) continue;
    await add();
    if (total > limit) return total;
  }
  await add();
  return total;
}
