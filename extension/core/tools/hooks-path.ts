/**
 * `core.hooksPath` from the workspace's own `.git/config`, read as text (git is not run): the folder
 * whose scripts git runs on commit, checkout and push. Writes there always ask (red-team L10).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { READ_NONBLOCK } from './file-kind';

const MAX_CONFIG_BYTES = 256 * 1024;

/** The last `hooksPath` of a plain `[core]` section (git's last-one-wins), unquoted; undefined when unset. */
export function parseHooksPath(configText: string): string | undefined {
  let inCore = false;
  let found: string | undefined;
  for (const raw of configText.split(/\r?\n/)) {
    let line = raw;
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*")?\s*\]/.exec(line);
    if (header) {
      inCore = header[1].toLowerCase() === 'core' && !/"/.test(header[0]);
      line = line.slice(header[0].length);
    }
    if (!inCore) continue;
    const kv = /^\s*hookspath\s*=\s*(.*)$/i.exec(line);
    if (kv) found = unquote(kv[1]);
  }
  return found || undefined;
}

/** A git config value: double quotes removed, `\"` and `\\` unescaped, a `#`/`;` comment outside quotes dropped. */
function unquote(v: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '\\' && i + 1 < v.length) out += v[++i];
    else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

function readConfig(file: string): string | undefined {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_CONFIG_BYTES) return undefined;
    const fd = fs.openSync(file, READ_NONBLOCK);
    try {
      const buf = Buffer.alloc(Math.min(st.size, MAX_CONFIG_BYTES));
      const n = fs.readSync(fd, buf, 0, buf.length, 0);
      return buf.subarray(0, n).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

const cache = new Map<string, { key: string; dir: string | undefined }>();

/**
 * The absolute folder `core.hooksPath` names in `<root>/.git/config` (relative values are relative
 * to the workspace, as git takes them in a work tree; `~/` is the home folder); undefined when unset.
 */
export function configuredHooksDir(root: string): string | undefined {
  const file = path.join(root, '.git', 'config');
  let key: string;
  try {
    const st = fs.lstatSync(file);
    key = `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return undefined;
  }
  const hit = cache.get(root);
  if (hit?.key === key) return hit.dir;
  const value = readConfig(file);
  const hooks = value === undefined ? undefined : parseHooksPath(value);
  const dir = hooks === undefined ? undefined : path.resolve(root, hooks === '~' || hooks.startsWith('~/') ? path.join(os.homedir(), hooks.slice(1)) : hooks);
  cache.set(root, { key, dir });
  return dir;
}
