/**
 * Which repository the git tools use, decided without letting git guess: the workspace's own `.git`,
 * or a repository found from the folder ABOVE the workspace. A git dir planted at the workspace root
 * itself (HEAD, config, objects/, refs/ written there) is never used, so its config cannot run programs.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scrubbedEnv } from '../../os/child-env';

export interface RepoLocation {
  gitDir: string;
  workTree: string;
}

/**
 * Config given on every git command line (it overrides the repository's own): no fsmonitor program,
 * no hooks, no external diff, no implicit bare repositories, no signature checks in logs, and
 * the signing programs git's defaults name (a repository's `gpg.program` never runs).
 */
export const HARDENED_CONFIG = [
  '-c', 'core.fsmonitor=false',
  '-c', `core.hooksPath=${os.devNull}`,
  '-c', 'diff.external=',
  '-c', 'safe.bareRepository=explicit',
  '-c', 'log.showSignature=false',
  '-c', 'gpg.program=gpg',
  '-c', 'gpg.openpgp.program=gpg',
  '-c', 'gpg.x509.program=gpgsm',
  '-c', 'gpg.ssh.program=ssh-keygen',
];

/**
 * Switches off every filter driver the repository's config defines (`filter.<name>.clean`,
 * `smudge`, `process`): git runs them from status, diff and add for any file whose index entry is
 * stale, which every file of an unpacked archive is. Reading the config runs nothing.
 */
export function filterOverrides(names: readonly string[]): string[] {
  return names.flatMap((n) => ['-c', `filter.${n}.clean=`, '-c', `filter.${n}.smudge=`, '-c', `filter.${n}.process=`, '-c', `filter.${n}.required=false`]);
}

/** The filter driver names `git config --get-regexp '^filter\.'` printed. */
export function filterNames(configOutput: string): string[] {
  const names = new Set<string>();
  for (const line of configOutput.split('\n')) {
    const m = /^filter\.(.+)\.[a-z]+\s/i.exec(line.trim() + ' ');
    if (m) names.add(m[1]);
  }
  return [...names];
}

/** Subcommands that take `--no-ext-diff --no-textconv`. */
export const DIFF_SUBCOMMANDS = new Set(['diff', 'log', 'show']);

/** The environment git runs with: tool env without variables that pick a repository for it. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env = scrubbedEnv({ PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' });
  for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_EXTERNAL_DIFF']) delete env[k];
  return env;
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(p, root);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** The repository for a workspace root (a real path), or undefined when it is not in one. */
export async function locateRepo(root: string, signal?: AbortSignal): Promise<RepoLocation | undefined> {
  const dotGit = path.join(root, '.git');
  if (fs.existsSync(dotGit)) return { gitDir: dotGit, workTree: root };
  const parent = path.dirname(root);
  if (parent === root) return undefined;
  // Discovery starts above the root, so the root itself is never taken for a git dir.
  const out = await new Promise<string | undefined>((resolve, reject) => {
    execFile(
      'git',
      [...HARDENED_CONFIG, 'rev-parse', '--absolute-git-dir', '--show-toplevel'],
      { cwd: parent, env: gitEnv(), signal, windowsHide: true },
      (err, stdout) => {
        const e = err as NodeJS.ErrnoException | null;
        if (e && (e.code === 'ENOENT' || e.name === 'AbortError')) return reject(e);
        resolve(e ? undefined : stdout);
      },
    );
  });
  const [gitDir, workTree] = (out ?? '').split('\n').map((l) => l.trim());
  if (!gitDir || !workTree || !inside(root, realOr(workTree))) return undefined;
  return { gitDir, workTree };
}

/** HEAD plus objects/ or refs/ at the root: someone made the root look like a git dir. */
export function looksLikePlantedGitDir(root: string): boolean {
  return fs.existsSync(path.join(root, 'HEAD')) && (fs.existsSync(path.join(root, 'objects')) || fs.existsSync(path.join(root, 'refs')));
}
