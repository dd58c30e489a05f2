/**
 * Credential locations in the user's home. Reading or writing them always asks, even when the
 * workspace is the home folder or `/` (so they are "inside the workspace").
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { snowpeaHome } from '../settings/files';

/** Home-relative (posix) location -> what it holds. Folders cover everything below them. */
const SENSITIVE: ReadonlyArray<[string, string]> = [
  ['.ssh', 'SSH keys'],
  ['.aws', 'AWS credentials'],
  ['.gnupg', 'GnuPG keys'],
  ['.config/gcloud', 'Google Cloud credentials'],
  ['.azure', 'Azure credentials'],
  ['.kube', 'Kubernetes credentials'],
  ['.docker/config.json', 'Docker registry credentials'],
  ['.netrc', 'login passwords'],
  ['.npmrc', 'npm tokens'],
  ['.pypirc', 'PyPI tokens'],
  ['.git-credentials', 'git passwords and tokens'],
  ['.snowpea/credentials.json', "Snowpea's API key"],
];

/** Case-insensitive file systems (macOS, Windows by default) compare folded. */
const fold = (p: string) => (process.platform === 'linux' ? p : p.toLowerCase());

/** '' when `p` is `dir`, the relative path when below it, else undefined. */
function below(dir: string, p: string): string | undefined {
  const rel = path.relative(fold(dir), fold(p));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel)) ? rel : undefined;
}

function real(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** Each location as its lexical path and, when it exists, its real path (a dotfiles manager may link ~/.ssh elsewhere). */
function locations(): Array<{ shown: string; what: string; paths: string[] }> {
  const home = os.homedir();
  const out = SENSITIVE.map(([rel, what]) => {
    const lexical = path.join(home, ...rel.split('/'));
    return { shown: `~/${rel}`, what, paths: [lexical, real(lexical), path.join(real(home) ?? home, ...rel.split('/'))] };
  });
  const creds = path.join(snowpeaHome(), 'credentials.json');
  out.push({ shown: creds, what: "Snowpea's API key", paths: [creds, real(creds)] });
  return out.map((l) => ({ ...l, paths: [...new Set(l.paths.filter((p): p is string => !!p))] }));
}

/**
 * Why `paths` (the same file before and after following symlinks) is a credentials location, e.g.
 * "~/.ssh/id_rsa is in ~/.ssh, which holds SSH keys"; undefined when it is not.
 */
export function sensitiveHomeReason(display: string, ...paths: string[]): string | undefined {
  for (const loc of locations()) {
    const rels = paths.flatMap((p) => loc.paths.map((l) => below(l, p))).filter((r) => r !== undefined);
    if (!rels.length) continue;
    return rels.includes('') ? `${display} holds ${loc.what}` : `${display} is in ${loc.shown}, which holds ${loc.what}`;
  }
  return undefined;
}

/**
 * The user's own configuration that runs programs or widens what an editor or Snowpea may do:
 * shell start-up files, git's and VS Code's user settings (where `snowpea.approvals.autoApprove`
 * lives). Writing them always asks; they matter when the workspace is the home folder (red team
 * I4), since elsewhere they are outside the workspace and ask anyway.
 */
const HOME_RUN_CONFIG: ReadonlyArray<[string, string]> = [
  ['.bashrc', 'a shell start-up file'],
  ['.bash_profile', 'a shell start-up file'],
  ['.bash_login', 'a shell start-up file'],
  ['.profile', 'a shell start-up file'],
  ['.zshrc', 'a shell start-up file'],
  ['.zshenv', 'a shell start-up file'],
  ['.zprofile', 'a shell start-up file'],
  ['.config/fish', 'shell start-up files'],
  ['.gitconfig', "git's user config (it names programs git runs)"],
  ['.config/git', "git's user config (it names programs git runs)"],
  ['.config/Code', "VS Code's user settings"],
  ['.config/Code - OSS', "VS Code's user settings"],
  ['.config/VSCodium', "VS Code's user settings"],
  ['.vscode-server', "VS Code's server settings and extensions"],
  ['.local/share/code-server', "code-server's user settings and extensions"],
  ['.config/autostart', 'programs started at login'],
  ['.config/systemd/user', 'services started at login'],
  ['.snowpea/settings.json', "Snowpea's user settings"],
];

/** Why writing `paths` (one file, lexical and real) changes the user's own program-running config; undefined when it does not. */
export function homeConfigReason(display: string, ...paths: string[]): string | undefined {
  const home = os.homedir();
  const homes = [...new Set([home, real(home) ?? home])];
  for (const [rel, what] of HOME_RUN_CONFIG) {
    for (const h of homes) {
      const loc = path.join(h, ...rel.split('/'));
      if (paths.some((p) => below(loc, p) !== undefined)) return `${display} is ${rel.includes('/') || !rel.startsWith('.') ? `in ~/${rel}, ` : ''}${what} in your home folder`;
    }
  }
  return undefined;
}
