/**
 * Keeps a workspace's checkpoint store bounded: checkpoints older than the age limit go, then
 * the oldest go until the store is under its size cap (the newest always stays), and git drops
 * what no checkpoint holds any more. Whatever went is said in one log line.
 */
import * as fs from 'node:fs';
import type { ShadowRepo } from './shadow-git';
import { shadowGit } from './shadow-git';

export interface PruneLimits {
  maxStoreBytes: number;
  maxAgeMs: number;
  /** Now, in ms since the epoch. */
  now: number;
}

interface Ref {
  name: string;
  time: number;
}

const DAY = 24 * 3600 * 1000;

/** Drops expired checkpoints and, over the cap, the oldest; returns what it did in words, or undefined when nothing went. */
export async function pruneStore(repo: ShadowRepo, limits: PruneLimits, signal: AbortSignal): Promise<string | undefined> {
  let refs = await checkpointRefs(repo, signal);
  const newest = refs.at(-1);
  const expired = refs.filter((r) => r !== newest && limits.now - r.time > limits.maxAgeMs);
  if (expired.length) {
    await dropRefs(repo, expired, signal);
    refs = refs.filter((r) => !expired.includes(r));
  }
  let size = expired.length ? await collect(repo, signal) : await storeBytes(repo, signal);
  const oversize: Ref[] = [];
  while (size > limits.maxStoreBytes && refs.length > 1) {
    const victims = refs.slice(0, Math.max(1, Math.min(refs.length - 1, Math.floor(refs.length / 4))));
    await dropRefs(repo, victims, signal);
    oversize.push(...victims);
    refs = refs.slice(victims.length);
    size = await collect(repo, signal);
  }
  if (!expired.length && !oversize.length) return undefined;
  const what = [
    ...(expired.length ? [`${count(expired.length)} older than ${Math.round(limits.maxAgeMs / DAY)} days (checkpoints.maxAgeDays)`] : []),
    ...(oversize.length ? [`the oldest ${count(oversize.length)}, to keep the store under ${mb(limits.maxStoreBytes)} MB (checkpoints.maxStoreMB)`] : []),
  ];
  return `removed ${what.join(' and ')} from the checkpoint store ${repo.gitDir}; it now holds ${mb(size)} MB`;
}

/** Every checkpoint of the workspace (all sessions), oldest first. */
async function checkpointRefs(repo: ShadowRepo, signal: AbortSignal): Promise<Ref[]> {
  const out = await shadowGit(repo, ['for-each-ref', '--format=%(refname)%00%(committerdate:unix)', 'refs/snowpea/'], { signal, shadowOnly: true });
  return out
    .split('\n')
    .map((row) => row.split('\0'))
    .filter(([name, time]) => name && time)
    .map(([name, time]) => ({ name, time: Number(time) * 1000 }))
    .sort((a, b) => a.time - b.time || a.name.localeCompare(b.name, 'en', { numeric: true }));
}

async function dropRefs(repo: ShadowRepo, refs: readonly Ref[], signal: AbortSignal): Promise<void> {
  await shadowGit(repo, ['update-ref', '--stdin'], { signal, shadowOnly: true, input: refs.map((r) => `delete ${r.name}\n`).join('') });
}

/**
 * `git gc --prune=now`: objects no checkpoint holds are deleted at once. Another process taking
 * a checkpoint of the same workspace (its private index is there) may be writing objects no ref
 * names yet, so then only objects older than an hour go.
 */
export async function collect(repo: ShadowRepo, signal: AbortSignal): Promise<number> {
  await shadowGit(repo, ['gc', '--quiet', `--prune=${othersAtWork(repo) ? '1.hour.ago' : 'now'}`], { signal, shadowOnly: true });
  return storeBytes(repo, signal);
}

/** Bytes the shadow repository's objects take (loose, packed and garbage), from `git count-objects -v`. */
export async function storeBytes(repo: ShadowRepo, signal: AbortSignal): Promise<number> {
  const out = await shadowGit(repo, ['count-objects', '-v'], { signal, shadowOnly: true });
  let kib = 0;
  for (const m of out.matchAll(/^(size|size-pack|size-garbage): (\d+)$/gm)) kib += Number(m[2]);
  return kib * 1024;
}

/** Another live process holds a private index in the shadow repository (it is taking a checkpoint or comparing). */
function othersAtWork(repo: ShadowRepo): boolean {
  let names: string[];
  try {
    names = fs.readdirSync(repo.gitDir);
  } catch {
    return false;
  }
  return names.some((n) => {
    const pid = Number(/^index-(\d+)-[0-9a-f]{8}$/.exec(n)?.[1]);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function count(n: number): string {
  return `${n} checkpoint${n === 1 ? '' : 's'}`;
}

function mb(bytes: number): string {
  return String(Math.round((bytes / 1024 / 1024) * 10) / 10);
}
