import * as fs from 'node:fs';
import * as path from 'node:path';

/** `https://api.openai.com` for `https://api.openai.com/v1`; the URL itself when it does not parse. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export type KeyRoute =
  /** The user chose the endpoint (user settings, flags or the default): their key may go there. */
  | { send: true }
  /** A workspace chose the endpoint and the user has not confirmed its origin: ask first, or send no key. */
  | { send: false; origin: string };

/**
 * Where the user's API key may go. A key is bound to the endpoints the user chose: the default,
 * one from their own settings or flags, or an origin they confirmed once. A `model.baseUrl` that a
 * workspace set (a cloned repository's settings) gets no key until the user confirms its origin.
 */
export function keyRoute(baseUrl: string, scope: 'default' | 'user' | 'workspace', confirmed: ReadonlySet<string>): KeyRoute {
  if (scope !== 'workspace') return { send: true };
  const origin = originOf(baseUrl);
  return confirmed.has(origin) ? { send: true } : { send: false, origin };
}

/** The origins the user confirmed for their key, kept in a JSON file (the CLI's `~/.snowpea/key-origins.json`, mode 0600). */
export class ConfirmedOrigins {
  constructor(private readonly file: string) {}

  read(): Set<string> {
    try {
      const list = JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown;
      return new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
    } catch {
      return new Set();
    }
  }

  add(origin: string): void {
    const all = this.read();
    all.add(origin);
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(this.file, JSON.stringify([...all].sort(), null, 2) + '\n', { mode: 0o600 });
  }
}
