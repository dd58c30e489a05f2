import * as vscode from 'vscode';
import { keyRoute } from '../../core/model/key-origin';
import { keyTarget } from '../../core/model/providers/anthropic';
import type { LoadedSettings } from '../../core/settings/load';
import { showWarning } from '../dialogs';

/** Origins the user confirmed for an endpoint a workspace chose (shared with the key's, api-key.ts). */
export const CONFIRMED_ORIGINS = 'snowpea.keyOrigins';
/** Origins declined in this window: the user's own endpoint is used until the window reloads. */
const declined = new Set<string>();

export type EndpointAnswer = 'user-chose' | 'confirmed' | 'declined';

/**
 * Whether requests may go to the model endpoint the settings name. One a workspace chose (its
 * .vscode/settings.json or .snowpea/settings.json, in a trusted workspace) would receive the user's
 * prompts and every file the agent reads, so before the first request the user is asked once per
 * origin, as the CLI asks on a terminal (red team N9, H2). Declined: the caller loads the settings
 * without the workspace's endpoint, so the user's own applies. `ask: false` never asks and answers
 * 'declined' for an origin not yet confirmed.
 */
export async function confirmWorkspaceEndpoint(context: vscode.ExtensionContext, loaded: LoadedSettings, ask: boolean): Promise<EndpointAnswer> {
  const target = keyTarget(loaded);
  if (target.scope !== 'workspace') return 'user-chose';
  const confirmed = new Set(context.globalState.get<string[]>(CONFIRMED_ORIGINS, []));
  const route = keyRoute(target.baseUrl, target.scope, confirmed);
  if (route.send) return 'confirmed';
  if (!ask || declined.has(route.origin)) return 'declined';
  const use = 'Use This Server';
  const answer = await showWarning(
    `Snowpea: this workspace's settings (${target.origin}) send model requests to ${target.baseUrl}. Send this conversation there?`,
    {
      modal: true,
      detail:
        `Your prompts, the files the agent reads and your API key would go to ${route.origin}. ` +
        'Choose Use This Server only if you trust it; otherwise Snowpea uses your own endpoint (your user settings) until the window reloads.',
    },
    use,
  );
  if (answer !== use) {
    declined.add(route.origin);
    return 'declined';
  }
  await context.globalState.update(CONFIRMED_ORIGINS, [...confirmed, route.origin]);
  return 'confirmed';
}
