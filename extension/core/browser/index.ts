/**
 * The process-wide browser sessions the built-in browser tools use, and the calls the host makes:
 * closeBrowserSession when a session ends, closeAllBrowsers for "Snowpea: Close Browser" and on exit.
 */
import { BrowserManager } from './browser-manager';

let shared: BrowserManager | undefined;

/** The manager behind createBuiltinTools' browser tools; created lazily (no browser starts until a tool needs one). */
export function sharedBrowserManager(): BrowserManager {
  return (shared ??= new BrowserManager());
}

/** Closes the session's page, context and proxy (and the browser, when no other session uses it). */
export async function closeBrowserSession(sessionId: string): Promise<void> {
  await shared?.closeSession(sessionId);
}

/** Closes every browser session and browser. */
export async function closeAllBrowsers(): Promise<void> {
  await shared?.closeAll();
}

export { BrowserManager, type BrowserManagerOptions } from './browser-manager';
export { checkUrl, checkUrlWithoutDns, checkTarget, parseTarget, hostTarget, type PolicyOptions, type PrivateNetwork, type Resolver, type Verdict } from './url-policy';
