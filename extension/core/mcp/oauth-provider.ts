/**
 * The SDK's OAuthClientProvider for one hosted MCP server, over a McpSecretStore (oauth-store.ts).
 * Two modes: `connect` (the transports' provider on every start: it sends stored tokens and lets
 * the SDK refresh them, and turns "the user must authorize" into NeedsSignInError instead of
 * opening anything), and `sign-in` (the user asked to sign in: it registers the client with the
 * loopback redirect, keeps the PKCE verifier and hands the checked authorization URL on).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { ServerSecrets, type McpSecretStore } from './oauth-store';

/** The server answered 401 and publishes OAuth metadata, and there is no usable token: the user has to sign in. */
export class NeedsSignInError extends Error {
  constructor(readonly serverUrl: string) {
    super(`it needs sign-in (run "Snowpea: Sign in to MCP server")`);
  }
}

/** A sign-in that cannot go on, with the reason (shown to the user). */
export class OAuthFlowError extends Error {}

/** The connect mode's redirect when nothing was registered yet (never opened: connect mode does not authorize). */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/** An authorization URL Snowpea opens: https, or http on this machine only. */
export function checkAuthorizationUrl(url: URL): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  throw new OAuthFlowError(`the authorization server asked to open ${url.protocol}//${url.host}, which is not https; Snowpea only opens https authorization pages (or http on 127.0.0.1/localhost)`);
}

export type OAuthProviderMode = { kind: 'connect' } | { kind: 'sign-in'; redirectUrl: string; state: string; onAuthorizationUrl(url: URL): Promise<void> };

export class McpOAuthProvider implements OAuthClientProvider {
  readonly secrets: ServerSecrets;
  /** What discovery found on this provider's last auth() run. */
  discovered?: OAuthDiscoveryState;
  /** The stored registration's redirect (connect mode), read by redirectUrl. */
  private registeredRedirect?: string;

  constructor(
    store: McpSecretStore,
    readonly serverUrl: string,
    private readonly mode: OAuthProviderMode,
  ) {
    this.secrets = new ServerSecrets(store, serverUrl);
  }

  get redirectUrl(): string {
    return this.mode.kind === 'sign-in' ? this.mode.redirectUrl : (this.registeredRedirect ?? PLACEHOLDER_REDIRECT);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Snowpea',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    if (this.mode.kind !== 'sign-in') throw new NeedsSignInError(this.serverUrl);
    return this.mode.state;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovered = state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const client = (await this.secrets.read()).client as (OAuthClientInformationMixed & { redirect_uris?: string[] }) | undefined;
    if (this.mode.kind === 'sign-in') {
      // A registration made for another loopback port is not reused: the server would refuse the redirect.
      return client && (!client.redirect_uris || client.redirect_uris.includes(this.mode.redirectUrl)) ? client : undefined;
    }
    if (!client) throw this.noSignIn();
    this.registeredRedirect = client.redirect_uris?.[0];
    return client;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    await this.secrets.update((r) => (r.client = { ...info }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.secrets.read()).tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.secrets.update((r) => {
      r.tokens = { ...tokens };
      delete r.codeVerifier;
    });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.mode.kind !== 'sign-in') throw new NeedsSignInError(this.serverUrl);
    checkAuthorizationUrl(url);
    await this.mode.onAuthorizationUrl(url);
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    if (this.mode.kind !== 'sign-in') return;
    await this.secrets.update((r) => (r.codeVerifier = verifier));
  }

  async codeVerifier(): Promise<string> {
    const v = (await this.secrets.read()).codeVerifier;
    if (!v) throw new OAuthFlowError('no sign-in is in progress for this server (its PKCE verifier is gone); sign in again');
    return v;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'discovery') return void (this.discovered = undefined);
    await this.secrets.update((r) => {
      if (scope === 'all' || scope === 'tokens') delete r.tokens;
      if (scope === 'all' || scope === 'client') delete r.client;
      if (scope === 'all' || scope === 'verifier') delete r.codeVerifier;
    });
  }

  /** Connect mode met a 401 with nothing to refresh: sign-in when the server publishes OAuth metadata, else a plain error. */
  private noSignIn(): Error {
    if (this.discovered && !this.discovered.authorizationServerMetadata) {
      return new Error('the server answered 401 Unauthorized and publishes no OAuth metadata; give it credentials in "headers" (e.g. Authorization)');
    }
    return new NeedsSignInError(this.serverUrl);
  }
}
