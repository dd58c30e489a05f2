/**
 * MCP OAuth in VS Code: tokens in SecretStorage (one secret per server url, never in settings,
 * the session store or the log), the sign-in's confirmation and browser, and the Sign in / Sign
 * out commands. The browser comes back to a loopback server on 127.0.0.1 (random port) that
 * the extension host runs; vscode.env.asExternalUri maps it for remote windows (code-server's
 * /proxy/<port>/, a forwarded port over Remote-SSH), so the same redirect works everywhere the
 * host can listen. A URI handler was not chosen: code-server and other web hosts route
 * vscode:// callbacks differently, the loopback answers the same way on every host.
 */
import * as vscode from 'vscode';
import type { McpManager } from '../../core/mcp';
import type { SignInUi } from '../../core/mcp/oauth-signin';
import type { McpSecretStore } from '../../core/mcp/oauth-store';
import { showError, showInfo, showWarning } from '../dialogs';

export function secretStore(secrets: vscode.SecretStorage): McpSecretStore {
  return {
    get: async (key) => secrets.get(key),
    store: async (key, value) => secrets.store(key, value),
    delete: async (key) => secrets.delete(key),
  };
}

/** The modal that names the server, its host and the authorization host (escaped by showWarning) before the browser opens. */
export const hostSignInUi: SignInUi = {
  confirmOpen: async (authorizationUrl, server) => {
    const open = 'Open Browser';
    const answer = await showWarning(
      `Snowpea: sign in to the MCP server "${server.name}" (${new URL(server.url).host})?`,
      {
        modal: true,
        detail: `Your browser opens ${authorizationUrl.protocol}//${authorizationUrl.host} to sign in. The tokens it gives are kept in VS Code's secret storage and sent only to ${new URL(server.url).origin}.`,
      },
      open,
    );
    return answer === open;
  },
  open: async (url) => {
    if (!(await vscode.env.openExternal(vscode.Uri.parse(url.href, true)))) throw new Error('the browser did not open');
  },
  externalRedirect: async (loopback) => (await vscode.env.asExternalUri(vscode.Uri.parse(loopback, true))).toString(true),
};

const isUrlServer = (s: { transport: string }) => s.transport !== 'stdio';

async function pickServer(manager: McpManager, title: string, which: (s: ReturnType<McpManager['servers']>[number]) => boolean, none: string): Promise<string | undefined> {
  const servers = manager.servers().filter(which);
  if (!servers.length) return void showInfo(none);
  if (servers.length === 1) return servers[0].name;
  const picked = await vscode.window.showQuickPick(
    servers.map((s) => ({ label: s.name, description: `${s.state === 'needs-auth' ? 'needs sign-in · ' : ''}${s.target}` })),
    { title },
  );
  return picked?.label;
}

/** Snowpea: Sign in to MCP server — from the palette (a pick of url servers, those that need it first) or the Tools tree item. */
export async function signInCommand(manager: McpManager, name?: string): Promise<void> {
  const needs = manager.servers().some((s) => s.state === 'needs-auth');
  name ??= await pickServer(manager, 'Sign in to MCP server', (s) => isUrlServer(s) && (!needs || s.state === 'needs-auth'), 'Snowpea: no MCP server here connects over a url.');
  if (!name) return;
  const server = name;
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Snowpea: signing in to the MCP server "${server}"…`, cancellable: true }, async (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      await manager.signIn(server, abort.signal);
    });
    void showInfo(`Snowpea: signed in to the MCP server "${server}".`);
  } catch (e) {
    void showError(`Snowpea: sign-in to the MCP server "${server}" failed: ${(e as Error).message}`);
  }
}

/** Snowpea: Sign out of MCP server — forgets its tokens and client registration. */
export async function signOutCommand(manager: McpManager, name?: string): Promise<void> {
  name ??= await pickServer(manager, 'Sign out of MCP server', isUrlServer, 'Snowpea: no MCP server here connects over a url.');
  if (!name) return;
  try {
    await manager.signOut(name);
    void showInfo(`Snowpea: signed out of the MCP server "${name}"; its tokens were removed.`);
  } catch (e) {
    void showError(`Snowpea: sign-out of the MCP server "${name}" failed: ${(e as Error).message}`);
  }
}

/** One notification per server (per server list) when it turns out to need sign-in, with a Sign In button. */
export function notifyNeedsSignIn(manager: McpManager): vscode.Disposable {
  const told = new Set<string>();
  const update = () => {
    for (const s of manager.servers()) {
      if (s.state !== 'needs-auth' || told.has(s.name)) continue;
      told.add(s.name);
      const signIn = 'Sign In';
      void showWarning(`Snowpea: the MCP server "${s.name}" needs sign-in before its tools can be used.`, signIn).then((a) => {
        if (a === signIn) void signInCommand(manager, s.name);
      });
    }
  };
  const sub = manager.onDidChange(update);
  return new vscode.Disposable(() => sub.dispose());
}
