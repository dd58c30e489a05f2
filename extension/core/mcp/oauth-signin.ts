/**
 * Signing in to a hosted MCP server: the SDK's auth() (discovery, client registration, PKCE)
 * with the browser coming back to a one-shot loopback server on 127.0.0.1 (random port). The
 * authorization URL is checked (https, or http on this machine), the user confirms before it
 * opens, the answer's `state` must be the one sent, and the code is exchanged for tokens that go
 * to the McpSecretStore only.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpOAuthProvider, OAuthFlowError } from './oauth-provider';
import type { McpSecretStore } from './oauth-store';

/** What the sign-in needs from the front end (the host's dialogs and browser; a test follows the URL itself). */
export interface SignInUi {
  /** Asked before the authorization page opens; false cancels. The host shows both hosts, escaped. */
  confirmOpen(authorizationUrl: URL, server: { name: string; url: string }): Promise<boolean>;
  /** Opens the authorization page in the user's browser. */
  open(authorizationUrl: URL): Promise<void>;
  /** The redirect the browser can reach for this loopback URL (VS Code's asExternalUri; identity when absent). */
  externalRedirect?(loopbackUrl: string): Promise<string>;
}

export interface SignInOptions {
  serverName: string;
  serverUrl: string;
  store: McpSecretStore;
  ui: SignInUi;
  /** How long the browser may take to come back (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetchFn?: FetchLike;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h2>${title}</h2><p>${text}</p></body>`;

interface Callback {
  code: string;
}

/** A loopback HTTP server that takes one redirect to /callback and checks its state. */
class LoopbackReceiver {
  private readonly server: http.Server;
  private settle!: { resolve(c: Callback): void; reject(e: Error): void };
  readonly result: Promise<Callback>;

  constructor(private readonly state: string) {
    this.result = new Promise<Callback>((resolve, reject) => (this.settle = { resolve, reject }));
    this.result.catch(() => undefined);
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
  }

  fail(e: Error): void {
    this.settle.reject(e);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // A proxy in front (code-server's /proxy/<port>/) may keep its prefix.
    if (req.method !== 'GET' || !url.pathname.endsWith('/callback')) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const q = url.searchParams;
    const answer = (status: number, title: string, text: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE(title, text));
    if (q.get('state') !== this.state) {
      answer(400, 'Sign-in failed', 'This answer does not belong to the sign-in Snowpea started. Go back to the editor and sign in again.');
      return this.settle.reject(new OAuthFlowError("the authorization server's answer carried the wrong state parameter (not the sign-in Snowpea started); no token was stored, sign in again"));
    }
    const error = q.get('error');
    if (error) {
      answer(400, 'Sign-in failed', 'The authorization server did not grant access. Go back to the editor for details.');
      const desc = q.get('error_description');
      return this.settle.reject(new OAuthFlowError(`the authorization server refused: ${error}${desc ? ` (${desc})` : ''}`));
    }
    const code = q.get('code');
    if (!code) {
      answer(400, 'Sign-in failed', 'The answer had no authorization code. Go back to the editor and sign in again.');
      return this.settle.reject(new OAuthFlowError('the authorization server answered without an authorization code'));
    }
    answer(200, 'Signed in', 'Snowpea is signed in. You can close this tab and return to the editor.');
    this.settle.resolve({ code });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** Signs in to one server and stores its tokens; rejects with the reason (OAuthFlowError for the user's and the server's answers). */
export async function signInToServer(o: SignInOptions): Promise<void> {
  const state = randomBytes(24).toString('base64url');
  const receiver = new LoopbackReceiver(state);
  const loopback = await receiver.listen();
  const timer = setTimeout(() => receiver.fail(new OAuthFlowError(`the browser did not come back within ${Math.round((o.timeoutMs ?? 300_000) / 1000)} s; sign in again`)), o.timeoutMs ?? 300_000);
  const onAbort = () => receiver.fail(new OAuthFlowError('the sign-in was cancelled'));
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const redirectUrl = o.ui.externalRedirect ? await o.ui.externalRedirect(loopback) : loopback;
    const provider = new McpOAuthProvider(o.store, o.serverUrl, {
      kind: 'sign-in',
      redirectUrl,
      state,
      onAuthorizationUrl: async (url) => {
        if (!(await o.ui.confirmOpen(url, { name: o.serverName, url: o.serverUrl }))) throw new OAuthFlowError('the sign-in was cancelled');
        await o.ui.open(url);
      },
    });
    let first: 'AUTHORIZED' | 'REDIRECT';
    try {
      first = await auth(provider, { serverUrl: o.serverUrl, fetchFn: o.fetchFn });
    } catch (e) {
      if (e instanceof OAuthFlowError) throw e;
      throw new OAuthFlowError(`could not start the sign-in: ${(e as Error).message}`, { cause: e });
    }
    // A stored refresh token was still good: signed in without the browser.
    if (first === 'AUTHORIZED') return;
    const { code } = await receiver.result;
    let done: 'AUTHORIZED' | 'REDIRECT';
    try {
      done = await auth(provider, { serverUrl: o.serverUrl, authorizationCode: code, fetchFn: o.fetchFn });
    } catch (e) {
      throw new OAuthFlowError(`the authorization server did not give tokens for the code: ${(e as Error).message}`, { cause: e });
    }
    if (done !== 'AUTHORIZED') throw new OAuthFlowError('the authorization server did not give tokens for the code');
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    await receiver.close();
  }
}
