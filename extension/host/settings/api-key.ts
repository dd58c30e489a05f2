import * as vscode from 'vscode';
import { keyRoute, originOf } from '../../core/model/key-origin';
import { keyEnvVar, keyTarget } from '../../core/model/providers/anthropic';
import { registerSecretValue } from '../../core/os/child-env';
import type { LoadedSettings } from '../../core/settings/load';
import { showWarning } from '../dialogs';
import { CONFIRMED_ORIGINS } from './workspace-endpoint';

/** The key entered before keys were bound to origins: used only for endpoints the user chose. */
export const API_KEY_SECRET = 'snowpea.apiKey';
/** Origins the user declined in this window: not asked again until the window reloads. */
const declined = new Set<string>();

/** SecretStorage name of the key entered for one origin. */
export function apiKeySecretFor(baseUrl: string): string {
  return `${API_KEY_SECRET}@${originOf(baseUrl)}`;
}

export function isApiKeySecret(name: string): boolean {
  return name === API_KEY_SECRET || name.startsWith(`${API_KEY_SECRET}@`);
}

/**
 * The API key for model.baseUrl, bound to where the user meant it to go: a key entered for this
 * origin (Set API Key stores it per origin), else the unbound key (or OPENAI_API_KEY) when the user
 * chose the endpoint. When a workspace chose it, that key goes there only after the user confirms
 * the origin once (remembered per origin); `ask: false` never asks and sends nothing meanwhile.
 */
export async function resolveApiKey(context: vscode.ExtensionContext, loaded: LoadedSettings, ask: boolean): Promise<string | undefined> {
  const key = await keyFor(context, loaded, ask);
  // Tool processes, MCP servers and the browser get an environment without it (core/os/child-env.ts).
  registerSecretValue(key);
  return key;
}

async function keyFor(context: vscode.ExtensionContext, loaded: LoadedSettings, ask: boolean): Promise<string | undefined> {
  // The endpoint the provider sends requests to (the anthropic provider's own, else model.baseUrl), and who chose it.
  const target = keyTarget(loaded);
  const baseUrl = target.baseUrl;
  const bound = await context.secrets.get(apiKeySecretFor(baseUrl));
  if (bound) return bound;
  const unbound = (await context.secrets.get(API_KEY_SECRET)) ?? process.env[keyEnvVar(loaded.settings)];
  if (!unbound) return undefined;
  const confirmed = new Set(context.globalState.get<string[]>(CONFIRMED_ORIGINS, []));
  const route = keyRoute(baseUrl, target.scope, confirmed);
  if (route.send) return unbound;
  if (!ask || declined.has(route.origin)) return undefined;
  const send = 'Send My Key';
  const answer = await showWarning(
    `Snowpea: this workspace's settings (${target.origin}) send model requests to ${route.origin}. Send your API key there?`,
    { modal: true, detail: 'Your key was entered for another endpoint. Choose Send My Key only if you trust this server; otherwise requests go without a key. You can also run Snowpea: Set API Key for this endpoint.' },
    send,
  );
  if (answer !== send) {
    declined.add(route.origin);
    return undefined;
  }
  await context.globalState.update(CONFIRMED_ORIGINS, [...confirmed, route.origin]);
  return unbound;
}
