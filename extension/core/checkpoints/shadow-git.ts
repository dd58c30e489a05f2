/**
 * git for the checkpoint store: the shadow repository (outside the workspace) is GIT_DIR, the
 * workspace is the work tree. The workspace is untrusted input, so git runs without system or
 * global config and never reads the workspace's own `.git`; nothing it holds (hooks, fsmonitor,
 * filters, attributes that convert line endings) can run a program or change a file's bytes.
 */
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitEnv, HARDENED_CONFIG } from '../tools/git/locate-repo';

export interface ShadowRepo {
  /** The shadow repository (GIT_DIR). */
  gitDir: string;
  /** The workspace (GIT_WORK_TREE), a real path. */
  workTree: string;
}

const MAX_BUFFER = 256 * 1024 * 1024;

/** Given on every command line, after HARDENED_CONFIG (fsmonitor, hooks, external diff off). */
const CHECKPOINT_CONFIG = [
  '-c', 'core.autocrlf=false',
  '-c', 'core.safecrlf=false',
  '-c', 'core.quotepath=off',
  '-c', 'core.untrackedCache=false',
  '-c', 'core.logAllRefUpdates=false',
  '-c', 'advice.addEmbeddedRepo=false',
  '-c', 'diff.ignoreSubmodules=all',
  '-c', 'commit.gpgSign=false',
  '-c', 'gc.autoDetach=false',
  '-c', 'gc.pruneExpire=1.hour.ago',
  // The shadow repository is ours; a workspace owned by another user is still checkpointed.
  '-c', 'safe.directory=*',
];

/**
 * Written to the shadow's info/attributes (the highest-precedence attributes file): no text
 * conversion, line-ending or encoding rewrite, filter or ident, whatever the workspace's
 * .gitattributes say, so files go back byte for byte.
 */
export const BYTE_EXACT_ATTRIBUTES = '* -text !eol !filter -ident !working-tree-encoding\n';

/** Variables that could point git at other config, objects or repositories. */
const DROPPED = ['GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_CONFIG', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_ATTR_SOURCE', 'GIT_LITERAL_PATHSPECS', 'GIT_ICASE_PATHSPECS', 'GIT_GLOB_PATHSPECS', 'GIT_NOGLOB_PATHSPECS'];

function checkpointEnv(repo: ShadowRepo, index: string | undefined, incoming?: string): NodeJS.ProcessEnv {
  const env = gitEnv();
  for (const k of Object.keys(env)) if (DROPPED.includes(k) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(k)) delete env[k];
  return {
    ...env,
    GIT_DIR: repo.gitDir,
    GIT_WORK_TREE: repo.workTree,
    ...(index ? { GIT_INDEX_FILE: index } : {}),
    // New objects go to the incoming folder; the store's own are read as an alternate (repo.ts).
    ...(incoming ? { GIT_OBJECT_DIRECTORY: incoming, GIT_ALTERNATE_OBJECT_DIRECTORIES: alternatePath(path.join(repo.gitDir, 'objects')) } : {}),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_AUTHOR_NAME: 'Snowpea',
    GIT_AUTHOR_EMAIL: 'checkpoints@snowpea.invalid',
    GIT_COMMITTER_NAME: 'Snowpea',
    GIT_COMMITTER_EMAIL: 'checkpoints@snowpea.invalid',
    LC_ALL: 'C',
  };
}

export class GitMissingError extends Error {
  constructor() {
    super('git was not found on PATH');
  }
}

export class GitFailedError extends Error {
  constructor(
    args: string[],
    readonly exitCode: number,
    stderr: string,
  ) {
    super(`git ${commandOf(args)} exited with code ${exitCode}: ${stderr.trim().slice(0, 2000)}`);
    this.diskFull = /No space left on device|Disk quota exceeded/i.test(stderr);
  }

  /** git said the disk (or the quota) is full. */
  readonly diskFull: boolean;
}

export interface GitRun {
  /** GIT_INDEX_FILE (absent: the shadow's own index). */
  index?: string;
  /** An object folder new objects go to (the store's objects are still read): see repo.ts's incoming objects. */
  incoming?: string;
  /**
   * The command touches only the shadow repository (refs, objects, gc): it runs there instead of
   * in the workspace, so it works when the workspace was moved or deleted (reliability N11).
   */
  shadowOnly?: boolean;
  /** Written to git's stdin. */
  input?: string;
  /** Aborting kills git. */
  signal: AbortSignal;
}

function gitArgs(args: string[]): string[] {
  return ['--no-pager', ...HARDENED_CONFIG, ...CHECKPOINT_CONFIG, ...args];
}

/** What a failed start or an abort becomes: git missing, the workspace gone, or the abort itself. */
function startError(repo: ShadowRepo, e: NodeJS.ErrnoException): Error {
  if (e.code !== 'ENOENT') return e;
  return fs.existsSync(repo.workTree) ? new GitMissingError() : new Error(`the workspace ${repo.workTree} is not a folder`);
}

/** The git command of `args` (`add`, `write-tree`): the first word that is not an option or a `-c` value. */
function commandOf(args: readonly string[]): string {
  return args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-c') ?? args[0];
}

/**
 * Test hook: SNOWPEA_FAULT_CHECKPOINT=<command>:<fault> stands for a fault just before git
 * `<command>` runs on a shadow repository: `kill` SIGKILLs this process (a crash part way through
 * a checkpoint), `enospc` fails the command as git fails on a full disk (after the commands
 * before it have written their objects), so tests need neither timing nor a small disk.
 */
function injectedFault(args: readonly string[]): Error | undefined {
  const [command, fault] = (process.env.SNOWPEA_FAULT_CHECKPOINT ?? '').split(':');
  if (!command || command !== commandOf(args)) return undefined;
  if (fault === 'kill') process.kill(process.pid, 'SIGKILL');
  if (fault === 'enospc') return new GitFailedError([...args], 128, 'error: unable to write loose object file: No space left on device\nfatal: (injected by SNOWPEA_FAULT_CHECKPOINT)');
  return undefined;
}

/** Runs `git <args>` on the shadow repository; resolves with stdout, rejects on a non-zero exit, a missing git or an abort. */
export function shadowGit(repo: ShadowRepo, args: string[], run: GitRun): Promise<string> {
  const fault = injectedFault(args);
  if (fault) return Promise.reject(fault);
  return new Promise((resolve, reject) => {
    const cwd = run.shadowOnly ? repo.gitDir : repo.workTree;
    const child = execFile('git', gitArgs(args), { cwd, env: checkpointEnv(repo, run.index, run.incoming), signal: run.signal, maxBuffer: MAX_BUFFER, windowsHide: true }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
      if (!e) return resolve(stdout);
      if (typeof e.code !== 'number') return reject(run.shadowOnly ? e : startError(repo, e));
      reject(new GitFailedError(args, e.code, stderr || e.message));
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(run.input ?? '');
  });
}

/**
 * The NUL-separated records of `git <args>` as git writes them (`index`: GIT_INDEX_FILE, absent:
 * the shadow's own); leaving the loop early (or an abort) kills git, so a walk of a large work tree stops as soon as the caller has seen enough.
 */
export async function* shadowGitRecords(repo: ShadowRepo, args: string[], signal: AbortSignal, index?: string): AsyncGenerator<string> {
  const child = spawn('git', gitArgs(args), { cwd: repo.workTree, env: checkpointEnv(repo, index), signal, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number>((resolve, reject) => {
    child.on('error', (e) => reject(startError(repo, e)));
    child.on('close', (code) => resolve(code ?? 1));
  });
  exit.catch(() => {}); // awaited below; an early return must not leave it unhandled
  try {
    let rest = '';
    for await (const chunk of child.stdout) {
      const parts = (rest + (chunk as Buffer).toString()).split('\0');
      rest = parts.pop() ?? '';
      for (const p of parts) if (p) yield p;
    }
    const code = await exit;
    if (code !== 0) throw new GitFailedError(args, code, stderr);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

/**
 * `git <args>` with `input` on stdin, its stdout as a stream of chunks (for `cat-file --batch`:
 * file contents too large to hold as one string). Leaving the loop early, or an abort, kills git.
 */
export async function* shadowGitChunks(repo: ShadowRepo, args: string[], input: string, signal: AbortSignal): AsyncGenerator<Buffer> {
  const child = spawn('git', gitArgs(args), { cwd: repo.workTree, env: checkpointEnv(repo, undefined), signal, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  const exit = new Promise<number>((resolve, reject) => {
    child.on('error', (e) => reject(startError(repo, e)));
    child.on('close', (code) => resolve(code ?? 1));
  });
  exit.catch(() => {});
  try {
    for await (const chunk of child.stdout) yield chunk as Buffer;
    const code = await exit;
    if (code !== 0) throw new GitFailedError(args, code, stderr);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

/** A folder as GIT_ALTERNATE_OBJECT_DIRECTORIES takes it: quoted (C style) when it holds the list separator or a quote. */
function alternatePath(dir: string): string {
  return /[:;"\\]/.test(dir) ? `"${dir.replace(/["\\]/g, (c) => `\\${c}`)}"` : dir;
}

/** NUL-separated git output as a list. */
export function nulList(out: string): string[] {
  return out.split('\0').filter((s) => s !== '');
}
