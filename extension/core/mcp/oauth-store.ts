/**
 * Where an MCP server's OAuth state lives: one secret per server URL (its tokens, its client
 * registration, the PKCE verifier of a sign-in in progress), behind a small interface. The host
 * backs it with VS Code SecretStorage; tests and the CLI with memory. Nothing here is written to
 * settings, the session store or logs.
 */
import { z } from 'zod';

/** The secret storage the OAuth provider reads and writes (VS Code's SecretStorage has this shape). */
export interface McpSecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A store in memory (tests; the CLI, which keeps no OAuth tokens). */
export class MemorySecretStore implements McpSecretStore {
  readonly values = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

/**
 * The server URL a secret belongs to: scheme, host, port and path (no fragment, no credentials).
 * Two configs naming the same URL share a sign-in; any other URL (another origin above all) has
 * none, so a config cannot send a token to a server it was not issued for.
 */
export function oauthServerKey(url: string): string {
  const u = new URL(url);
  u.hash = '';
  u.username = '';
  u.password = '';
  return u.href;
}

export const OAUTH_SECRET_PREFIX = 'snowpea.mcp.oauth:';

/** The one record stored per server; the tokens and client keep every field the SDK gave them (its `issuer` stamp included). */
const StoredSchema = z.object({
  serverUrl: z.string(),
  tokens: z.record(z.string(), z.unknown()).optional(),
  client: z.record(z.string(), z.unknown()).optional(),
  codeVerifier: z.string().optional(),
});
export type StoredOAuth = z.infer<typeof StoredSchema>;

/** The OAuth record of one server in a McpSecretStore. */
export class ServerSecrets {
  readonly key: string;
  constructor(
    private readonly store: McpSecretStore,
    readonly serverUrl: string,
  ) {
    this.key = OAUTH_SECRET_PREFIX + oauthServerKey(serverUrl);
  }

  /** The record, or an empty one when there is none, it does not parse, or it names another server. */
  async read(): Promise<StoredOAuth> {
    const empty: StoredOAuth = { serverUrl: oauthServerKey(this.serverUrl) };
    const raw = await this.store.get(this.key);
    if (!raw) return empty;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return empty;
    }
    const parsed = StoredSchema.safeParse(json);
    if (!parsed.success || parsed.data.serverUrl !== empty.serverUrl) return empty;
    return parsed.data;
  }

  async update(change: (r: StoredOAuth) => void): Promise<void> {
    const r = await this.read();
    change(r);
    if (!r.tokens && !r.client && !r.codeVerifier) await this.store.delete(this.key);
    else await this.store.store(this.key, JSON.stringify(r));
  }

  async hasTokens(): Promise<boolean> {
    return !!(await this.read()).tokens;
  }

  clear(): Promise<void> {
    return this.store.delete(this.key);
  }
}
