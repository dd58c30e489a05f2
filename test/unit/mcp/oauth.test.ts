import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpManager } from '../../../extension/core/mcp/manager';
import type { SignInUi } from '../../../extension/core/mcp/oauth-signin';
import { MemorySecretStore, OAUTH_SECRET_PREFIX } from '../../../extension/core/mcp/oauth-store';
import { formatMcpServers } from '../../../extension/core/mcp/format';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { startOAuthMcpServer, type OAuthFixture } from '../../fixtures/mcp-oauth-server';
import { recordingLogger } from '../../fixtures/recording-logger';
import { makeCtx, tempDir } from '../tools/helpers';
import { managerFor } from './fixture';

/** The browser, played by the test: records what it was asked to confirm and follows the authorization URL (and its redirect) itself. */
function testBrowser(answer = true): SignInUi & { confirmed: URL[]; opened: URL[] } {
  const confirmed: URL[] = [];
  const opened: URL[] = [];
  return {
    confirmed,
    opened,
    confirmOpen: async (url) => (confirmed.push(url), answer),
    open: async (url) => {
      opened.push(url);
      const r = await fetch(url, { redirect: 'manual' });
      const back = r.headers.get('location');
      if (back) await (await fetch(back)).text();
    },
  };
}

describe('MCP OAuth for hosted servers (authorization + resource server on 127.0.0.1)', function () {
  this.timeout(60_000);
  let fixture: OAuthFixture | undefined;
  let other: OAuthFixture | undefined;
  const managers: McpManager[] = [];
  afterEach(async () => {
    for (const m of managers.splice(0)) await m.close();
    await fixture?.close();
    await other?.close();
    fixture = other = undefined;
  });

  function hosted(store: MemorySecretStore, ui: SignInUi | undefined, url: string, extra: Parameters<typeof managerFor>[1] = {}) {
    const setup = managerFor({ hosted: { type: 'http', url } }, { oauth: { store, ui }, ...extra });
    managers.push(setup.manager);
    const reg = new ToolRegistry();
    setup.manager.attach(reg);
    return { ...setup, reg };
  }

  const storedTokens = (store: MemorySecretStore, url: string) => {
    const raw = store.values.get(OAUTH_SECRET_PREFIX + url);
    return raw ? (JSON.parse(raw) as { tokens?: { access_token: string; refresh_token?: string; issuer?: string } }).tokens : undefined;
  };

  it('401 -> needs sign-in -> sign-in -> tools; restart uses the stored token; an expired token is refreshed; sign out clears', async () => {
    fixture = await startOAuthMcpServer();
    const store = new MemorySecretStore();
    const browser = testBrowser();
    const log = recordingLogger();
    const first = hosted(store, browser, fixture.url, { logger: log });
    await first.manager.ready();
    assert.equal(first.manager.servers()[0].state, 'needs-auth', first.manager.servers()[0].lastError);
    assert.match(first.manager.servers()[0].lastError ?? '', /needs sign-in: run "Snowpea: Sign in to MCP server"/);
    assert.match(formatMcpServers(first.manager).join('\n'), /hosted\s+needs sign-in/);
    assert.equal(browser.confirmed.length, 0, 'nothing opens before the user asks to sign in');
    assert.ok(!fixture.hits.includes('as POST /register'), 'no client registration before sign-in');

    await first.manager.signIn('hosted');
    assert.equal(browser.confirmed.length, 1);
    assert.equal(browser.confirmed[0].origin, fixture.issuer, 'the confirmation is about the authorization server');
    assert.equal(first.manager.servers()[0].state, 'running');
    assert.deepEqual(first.reg.all().map((t) => t.name), ['mcp__hosted__whoami']);
    const ctx = makeCtx(tempDir());
    assert.equal((await first.reg.invoke('mcp__hosted__whoami', '{}', ctx)).content, 'user=alice');
    const tokens = storedTokens(store, fixture.url);
    assert.ok(tokens?.access_token && fixture.valid.has(tokens.access_token), 'the issued token is in the secret store');
    assert.equal(tokens?.issuer, fixture.issuer, 'stored with the issuer the SDK stamped (a refresh goes to no other server)');
    assert.deepEqual([...store.values.keys()], [OAUTH_SECRET_PREFIX + fixture.url], 'one secret, keyed by the server url');
    // Never shown: not in the status, the listing or the log.
    const shown = JSON.stringify(first.manager.servers()) + formatMcpServers(first.manager).join('\n') + log.lines.join('\n');
    assert.ok(!shown.includes(tokens.access_token) && !shown.includes(tokens.refresh_token!), 'tokens are never shown');
    await first.manager.close();

    // A new window: the stored token, no sign-in.
    const second = hosted(store, browser, fixture.url);
    await second.manager.ready();
    assert.equal(second.manager.servers()[0].state, 'running', second.manager.servers()[0].lastError);
    assert.equal(browser.confirmed.length, 1, 'no second sign-in');
    assert.equal(fixture.hits.filter((h) => h === 'as GET /authorize').length, 1);

    // The access token expires: the SDK refreshes it with the refresh token and the call goes through.
    fixture.expireAccessTokens();
    assert.equal((await second.reg.invoke('mcp__hosted__whoami', '{}', ctx)).content, 'user=alice');
    assert.deepEqual(fixture.grants, ['authorization_code', 'refresh_token']);
    const refreshed = storedTokens(store, fixture.url);
    assert.notEqual(refreshed?.access_token, tokens.access_token);
    assert.ok(fixture.valid.has(refreshed!.access_token));

    // Sign out: the secret is gone and the server needs sign-in again.
    await second.manager.signOut('hosted');
    assert.equal(store.values.size, 0);
    const out = await second.reg.invoke('mcp__hosted__whoami', '{}', ctx);
    assert.equal(out.error?.code, 'unavailable');
    assert.match(out.content, /the MCP server "hosted" needs the user to sign in/);
    assert.equal(second.manager.servers()[0].state, 'needs-auth');
  });

  it('a token is sent only to the url it was issued for: a workspace config naming another server gets none', async () => {
    fixture = await startOAuthMcpServer();
    other = await startOAuthMcpServer();
    const store = new MemorySecretStore();
    const signed = hosted(store, testBrowser(), fixture.url);
    await signed.manager.ready();
    await signed.manager.signIn('hosted');
    assert.ok(storedTokens(store, fixture.url));
    // The workspace's .mcp.json defines "hosted" too, at another origin (and the same store).
    const workspace = tempDir('sp-mcp-ws-');
    fs.writeFileSync(path.join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { hosted: { type: 'http', url: other.url } } }));
    const ws = managerFor({}, { workspace, oauth: { store, ui: testBrowser() }, confirmServer: async () => true });
    managers.push(ws.manager);
    ws.manager.attach(new ToolRegistry());
    await ws.manager.ready();
    assert.equal(ws.manager.servers()[0].state, 'needs-auth');
    assert.deepEqual(other.bearers, [], 'no Authorization header reached the other server');
    assert.ok(!other.hits.some((h) => h.startsWith('as POST /token')), 'no refresh token went to the other authorization server');
  });

  it('a workspace server asks its first-start question before any sign-in; declined, nothing opens', async () => {
    fixture = await startOAuthMcpServer();
    const workspace = tempDir('sp-mcp-ws-');
    fs.writeFileSync(path.join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { hosted: { type: 'http', url: fixture.url } } }));
    const browser = testBrowser();
    let asked = 0;
    const ws = managerFor({}, { workspace, oauth: { store: new MemorySecretStore(), ui: browser }, confirmServer: async () => (asked++, false), startUncached: false });
    managers.push(ws.manager);
    await assert.rejects(ws.manager.signIn('hosted'), /the MCP server "hosted" cannot be used \(the user declined to start this server\)/);
    assert.equal(asked, 1);
    assert.equal(browser.confirmed.length, 0);
    assert.deepEqual(fixture.hits, [], 'the server was not contacted');
  });

  it('a wrong state in the answer is refused, and no token is stored', async () => {
    fixture = await startOAuthMcpServer({ wrongState: 'forged' });
    const store = new MemorySecretStore();
    const { manager } = hosted(store, testBrowser(), fixture.url);
    await manager.ready();
    await assert.rejects(manager.signIn('hosted'), /wrong state parameter \(not the sign-in Snowpea started\); no token was stored/);
    assert.equal(storedTokens(store, fixture.url), undefined);
    assert.deepEqual(fixture.grants, [], 'the code was not exchanged');
    assert.equal(manager.servers()[0].state, 'needs-auth');
  });

  it('a token endpoint that answers 500 is a clear error', async () => {
    fixture = await startOAuthMcpServer({ tokenFails: true });
    const store = new MemorySecretStore();
    const { manager } = hosted(store, testBrowser(), fixture.url);
    await manager.ready();
    await assert.rejects(manager.signIn('hosted'), /the authorization server did not give tokens for the code: .*the token store is down/);
    assert.equal(storedTokens(store, fixture.url), undefined);
  });

  it('an authorization URL that is not https (nor on this machine) is refused before anything opens', async () => {
    fixture = await startOAuthMcpServer({ authorizationEndpoint: 'http://auth.example.test/authorize' });
    const store = new MemorySecretStore();
    const browser = testBrowser();
    const { manager } = hosted(store, browser, fixture.url);
    await manager.ready();
    await assert.rejects(manager.signIn('hosted'), /asked to open http:\/\/auth\.example\.test, which is not https/);
    assert.equal(browser.confirmed.length, 0);
    assert.equal(browser.opened.length, 0);
  });

  it('the user declining the confirmation cancels the sign-in', async () => {
    fixture = await startOAuthMcpServer();
    const browser = testBrowser(false);
    const { manager } = hosted(new MemorySecretStore(), browser, fixture.url);
    await manager.ready();
    await assert.rejects(manager.signIn('hosted'), /the sign-in was cancelled/);
    assert.equal(browser.opened.length, 0);
  });

  it('without a way to sign in (the CLI), the server says so; a 401 without OAuth metadata is a plain error', async () => {
    fixture = await startOAuthMcpServer();
    const cli = managerFor({ hosted: { type: 'http', url: fixture.url } }, { oauth: { signInHint: 'sign in from the Snowpea editor extension; the CLI keeps no OAuth tokens' } });
    managers.push(cli.manager);
    cli.manager.attach(new ToolRegistry());
    await cli.manager.ready();
    assert.equal(cli.manager.servers()[0].lastError, 'needs sign-in: sign in from the Snowpea editor extension; the CLI keeps no OAuth tokens');
    await assert.rejects(cli.manager.signIn('hosted'), /cannot sign in here: sign in from the Snowpea editor extension/);

    other = await startOAuthMcpServer({ noMetadata: true });
    const plain = hosted(new MemorySecretStore(), testBrowser(), other.url);
    await plain.manager.ready();
    assert.equal(plain.manager.servers()[0].state, 'failed');
    assert.match(plain.manager.servers()[0].lastError ?? '', /answered 401 Unauthorized and publishes no OAuth metadata/);
  });
});
