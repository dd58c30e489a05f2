import * as path from 'node:path';
import type { Logger } from '../core/log';
import { ConfirmedOrigins, keyRoute } from '../core/model/key-origin';
import { keyTarget } from '../core/model/providers/anthropic';
import type { LoadedSettings } from '../core/settings/load';
import { snowpeaHome } from '../core/settings/files';
import { terminalConfirm } from './terminal';
import { holdsHidden, oneLine } from './terminal-text';

/**
 * The key the CLI may send to model.baseUrl. A base URL from the workspace's .snowpea/settings.json
 * (a cloned repository) gets the user's key only after the user confirms its origin on a terminal
 * (remembered in ~/.snowpea/key-origins.json); without a terminal it gets none, with a warning.
 * One that holds control or bidi characters is never offered the key: no real endpoint needs them,
 * and they are how a repository draws a fake question over the real one (red-team N1, X16).
 */
export async function keyForEndpoint(loaded: LoadedSettings, apiKey: string, log: Logger): Promise<string> {
  if (!apiKey || apiKey === 'none') return apiKey;
  // The endpoint the provider sends requests to (the anthropic provider's own, else model.baseUrl), and who chose it.
  const target = keyTarget(loaded);
  const baseUrl = target.baseUrl;
  const confirmed = new ConfirmedOrigins(path.join(snowpeaHome(), 'key-origins.json'));
  const route = keyRoute(baseUrl, target.scope, confirmed.read());
  if (route.send) return apiKey;
  if (holdsHidden(baseUrl) || /[\n\t]/.test(baseUrl)) {
    log.warn(`your API key is not sent to ${oneLine(baseUrl)}: that model.baseUrl from ${target.origin} holds control or invisible characters (shown escaped)`);
    return 'none';
  }
  const question = `${target.origin} points Snowpea at ${oneLine(baseUrl)}.\nSend your API key to ${oneLine(route.origin)}?`;
  if (await terminalConfirm(question)) {
    confirmed.add(route.origin);
    return apiKey;
  }
  log.warn(`your API key is not sent to ${route.origin}: the endpoint comes from ${target.origin}, a workspace file; pass --base-url or set it in ~/.snowpea/settings.json to use that endpoint with your key`);
  return 'none';
}

/**
 * Whether requests may go to the endpoint the settings name. One that a workspace file chose (a
 * cloned repository's .snowpea/settings.json) would receive the user's prompts and every file the
 * agent reads, so it is used only once the user confirmed its origin on a terminal (remembered with
 * the key's origins); otherwise the user's own endpoint applies and a warning says so (red team N9).
 */
export async function workspaceEndpointConfirmed(loaded: LoadedSettings, log: Logger): Promise<boolean> {
  const target = keyTarget(loaded);
  if (target.scope !== 'workspace') return true;
  const confirmed = new ConfirmedOrigins(path.join(snowpeaHome(), 'key-origins.json'));
  const route = keyRoute(target.baseUrl, target.scope, confirmed.read());
  if (route.send) return true;
  const unusable = holdsHidden(target.baseUrl) || /[\n\t]/.test(target.baseUrl);
  const question = `${target.origin} points Snowpea at ${oneLine(target.baseUrl)}.\nSend this conversation (your prompts and the files the agent reads) and your API key to ${oneLine(route.origin)}?`;
  if (!unusable && (await terminalConfirm(question))) {
    confirmed.add(route.origin);
    return true;
  }
  log.warn(
    `the model endpoint ${oneLine(target.baseUrl)} from ${target.origin} is not used${unusable ? ' (it holds control or invisible characters)' : ''}: requests go to your own endpoint; confirm it on a terminal, pass --base-url, or set it in ~/.snowpea/settings.json`,
  );
  return false;
}
