/**
 * The process-wide browser sessions the built-in browser tools use, and the calls the host makes:
 * closeBrowserSession when a session ends (closeBrowserOnRelease, the agent's onSessionReleased),
 * closeAllBrowsers for "Snowpea: Close Browser" and on exit.
 */
import type { Logger } from '../log';
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

/**
 * The Agent's onSessionReleased as the host and the CLI wire it: a released session (the chat
 * left it, a subagent finished, it was deleted) has its page, context and proxy closed; a failure is logged.
 */
export function closeBrowserOnRelease(logger: Logger): (sessionId: string) => void {
  return (id) => void closeBrowserSession(id).catch((e: Error) => logger.warn(`could not close the browser page of session ${id}: ${e.message}`));
}

/** Closes every browser session and browser. */
export async function closeAllBrowsers(): Promise<void> {
  await shared?.closeAll();
}

export { BrowserManager, type BrowserManagerOptions } from './browser-manager';
export { checkUrl, checkUrlWithoutDns, checkTarget, parseTarget, hostTarget, type PolicyOptions, type PrivateNetwork, type Resolver, type Verdict } from './url-policy';
