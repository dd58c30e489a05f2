/**
 * Ways to give the CLI an API key without putting it on the command line, where any local process
 * can read it (`ps`, /proc/<pid>/cmdline): `--api-key-file FILE` and `--api-key -` (one line on stdin).
 * The key ends up in `flags['api-key']` in memory, and is registered so child processes never see it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { noKeySent } from '../core/model/errors';
import { originOf } from '../core/model/key-origin';
import { ModelError, type ModelClient } from '../core/model/types';
import { snowpeaHome } from '../core/settings/files';
import { registerSecretValue } from '../core/os/child-env';

export interface ApiKeyFlags {
  'api-key'?: string;
  'api-key-file'?: string;
}

const MAX_KEY_BYTES = 64 * 1024;

/** The key in a file: its first line, trimmed. Warns when others can read the file. */
export function readApiKeyFile(file: string, warn: (m: string) => void): string {
  let text: string;
  try {
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) warn(`${file} is readable by others; run: chmod 600 ${file}`);
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`--api-key-file ${file} could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { cause: e });
  }
  const key = text.split(/\r?\n/)[0].trim();
  if (!key) throw new Error(`--api-key-file ${file} is empty; put the key on its first line`);
  return key;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** One line from a file descriptor, read a byte at a time so the rest of stdin stays unread. */
export function readKeyLine(fd = 0): string {
  const one = Buffer.alloc(1);
  const bytes: number[] = [];
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(fd, one, 0, 1, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        pause(20);
        continue;
      }
      if (code === 'EOF') break;
      throw new Error(`--api-key -: could not read stdin (${code ?? (e as Error).message})`, { cause: e });
    }
    if (n === 0 || one[0] === 0x0a) break;
    bytes.push(one[0]);
    if (bytes.length > MAX_KEY_BYTES) throw new Error('--api-key -: the first line of stdin is longer than any API key');
  }
  const key = Buffer.from(bytes).toString('utf8').trim();
  if (!key) throw new Error('--api-key - expects the key as the first line of stdin, which was empty');
  return key;
}

/**
 * Resolves `--api-key-file FILE` and `--api-key -` into `flags['api-key']`, warns that a literal
 * `--api-key KEY` is visible to other processes, and registers the key as a secret child processes
 * must not inherit. Throws a clear error for bad input.
 */
export function applyApiKeyFlags(flags: ApiKeyFlags, warn: (m: string) => void, readStdinLine: () => string = () => readKeyLine(0)): void {
  const given = flags['api-key'];
  const file = flags['api-key-file'];
  if (given !== undefined && file !== undefined) throw new Error('give either --api-key or --api-key-file, not both');
  if (file !== undefined) flags['api-key'] = readApiKeyFile(file, warn);
  else if (given === '-') {
    if (process.stdin.isTTY) process.stderr.write('snowpea: type the API key and press Enter (it is shown as you type): ');
    flags['api-key'] = readStdinLine();
  } else if (given !== undefined) {
    warn('--api-key KEY is visible to other processes on this machine (ps, /proc); prefer --api-key-file FILE, --api-key - (stdin) or ~/.snowpea/credentials.json');
  }
  delete flags['api-key-file'];
  registerSecretValue(flags['api-key']);
}

/** The credentials file as a user would type it (`~/.snowpea/credentials.json` unless SNOWPEA_HOME moves it). */
function credentialsFileShown(): string {
  const file = path.join(snowpeaHome(), 'credentials.json');
  const home = os.homedir();
  return home && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

/** Where the CLI takes a key from, in one clause: the flags, the environment variable, the credentials file. */
export function keySourcesHint(envVar = 'OPENAI_API_KEY'): string {
  return `give one with --api-key-file FILE or --api-key - (stdin), set ${envVar}, or put {"apiKey": "..."} in ${credentialsFileShown()}`;
}

/** The endpoint every user gets by default, and Anthropic's (model.provider "anthropic"): they always need a key. */
const KEYED_ORIGINS = new Set(['https://api.openai.com', 'https://api.anthropic.com']);

/**
 * Why a run cannot start: no API key from any source, for OpenAI's own endpoint (which always needs
 * one). Null otherwise: a local or other endpoint may need no key, so it is tried (a 401 then says the same).
 */
export function missingKeyProblem(baseUrl: string, userKey: string, envVar?: string): string | null {
  if (!noKeySent(userKey) || !KEYED_ORIGINS.has(originOf(baseUrl))) return null;
  return `no API key is set for ${baseUrl.replace(/\/+$/, '')}: ${keySourcesHint(envVar)} (a local server that needs no key: --base-url URL); nothing was sent`;
}

/** The client, with every HTTP 401 saying where the CLI takes a key from. */
export function withKeyHint(client: ModelClient, envVar?: string): ModelClient {
  return {
    endpoint: client.endpoint,
    model: client.model,
    async complete(req, handlers, signal) {
      try {
        return await client.complete(req, handlers, signal);
      } catch (e) {
        if (e instanceof ModelError && e.status === 401) throw new ModelError(e.kind, `${e.message.replace(/[.\s]+$/, '')}; ${keySourcesHint(envVar)}`, e.status);
        throw e;
      }
    },
  };
}
