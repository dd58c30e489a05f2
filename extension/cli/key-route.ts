import * as path from 'node:path';
import type { Logger } from '../core/log';
import { ConfirmedOrigins, keyRoute } from '../core/model/key-origin';
import type { LoadedSettings } from '../core/settings/load';
import { snowpeaHome } from '../core/settings/files';
import { terminalConfirm } from './terminal';

/**
 * The key the CLI may send to model.baseUrl. A base URL from the workspace's .snowpea/settings.json
 * (a cloned repository) gets the user's key only after the user confirms its origin on a terminal
 * (remembered in ~/.snowpea/key-origins.json); without a terminal it gets none, with a warning.
 */
export async function keyForEndpoint(loaded: LoadedSettings, apiKey: string, log: Logger): Promise<string> {
  if (!apiKey || apiKey === 'none') return apiKey;
  const baseUrl = loaded.settings['model.baseUrl'];
  const confirmed = new ConfirmedOrigins(path.join(snowpeaHome(), 'key-origins.json'));
  const route = keyRoute(baseUrl, loaded.scope['model.baseUrl'], confirmed.read());
  if (route.send) return apiKey;
  const question = `${loaded.origin['model.baseUrl']} points Snowpea at ${baseUrl}. Send your API key to ${route.origin}?`;
  if (await terminalConfirm(question)) {
    confirmed.add(route.origin);
    return apiKey;
  }
  log.warn(`your API key is not sent to ${route.origin}: model.baseUrl comes from ${loaded.origin['model.baseUrl']}, a workspace file; pass --base-url or set it in ~/.snowpea/settings.json to use that endpoint with your key`);
  return 'none';
}
