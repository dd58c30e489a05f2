import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexRules } from './repo';
import { shadowGitRecords, type ShadowRepo } from './shadow-git';
import { lsFilesArgs, rulesKey, type TreeRules } from './tree-rules';

const BATCH = 256;

export interface WorkTreeScan {
  /** Bytes of the files a checkpoint under the rules would hold (a lower bound once past `limit`). */
  bytes: number;
  /** Files over the per-file limit, which it would not hold (those seen before the walk stopped). */
  overLimit: string[];
  /** Files it would hold (those seen before the walk stopped). */
  files: number;
  /** Nested repositories (`vendor/lib`), which it never holds (those seen before the walk stopped). */
  nested: string[];
}

/**
 * What a checkpoint under `rules` would hold: the files git lists under them, nested
 * repositories and symlink targets left out, each file over `maxFileBytes` set aside. Read
 * before anything is copied into the shadow repository; the walk stops once the total passes
 * `limit`.
 */
export async function scanWorkTree(repo: ShadowRepo, rules: Omit<TreeRules, 'notHeld'>, maxFileBytes: number, limit: number, signal: AbortSignal): Promise<WorkTreeScan> {
  const scan: WorkTreeScan = { bytes: 0, overLimit: [], files: 0, nested: [] };
  let batch: string[] = [];
  const add = async () => {
    const sizes = await Promise.all(
      batch.map((f) =>
        fs.promises.lstat(path.join(repo.workTree, f)).then(
          (st) => (st.isFile() ? st.size : 0),
          () => -1, // deleted since the last checkpoint
        ),
      ),
    );
    sizes.forEach((s, i) => {
      if (s > maxFileBytes) scan.overLimit.push(batch[i]);
      else if (s >= 0) {
        scan.bytes += s;
        scan.files++;
      }
    });
    batch = [];
  };
  const full = { ...rules, notHeld: [] };
  // The shadow's index lists files too (`--cached`), but only one built under these rules.
  const index = indexRules(repo) === rulesKey(full) ? undefined : path.join(repo.gitDir, 'snowpea-no-index');
  for await (const file of shadowGitRecords(repo, await lsFilesArgs(repo, full, true), signal, index)) {
    if (file.endsWith('/')) {
      scan.nested.push(file.slice(0, -1)); // a nested repository
      continue;
    }
    batch.push(file);
    if (batch.length < BATCH) continue;
    await add();
    if (scan.bytes > limit) return scan;
  }
  await add();
  return scan;
}
