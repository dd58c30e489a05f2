/**
 * Opens the browser the tools drive: the user's Chromium/Chrome/Edge launched by playwright-core
 * (headless by default), or an already running one over CDP when `browser.cdpUrl` is set.
 */
import type { Browser } from 'playwright-core';
import { scrubEnv } from '../os/child-env';
import { findBrowserExecutable, installHint, type BrowserSearchEnv } from './find-browser';
import { loadPlaywright } from './playwright-loader';

export interface LaunchSettings {
  executablePath: string | null;
  headless: boolean;
  cdpUrl: string | null;
}

/** The browser cannot be started or reached; the message says what to do. */
export class BrowserUnavailableError extends Error {}

/** Flags for a quiet, private browser: no background traffic, and no UDP that would skip the proxy. */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Chromium resolves no names itself (its own update and probe lookups); pages reach hosts only through the proxy.
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

const LAUNCH_TIMEOUT_MS = 60_000;

/** Chromium's sandbox cannot run as root; the GPU process is of no use there either. */
function rootArgs(): string[] {
  return process.getuid?.() === 0 ? ['--no-sandbox', '--disable-gpu'] : [];
}

export function launchKey(s: LaunchSettings): string {
  return JSON.stringify([s.cdpUrl, s.cdpUrl ? null : s.executablePath, s.cdpUrl ? null : s.headless]);
}

export async function openBrowser(s: LaunchSettings, search?: BrowserSearchEnv): Promise<Browser> {
  const { chromium } = loadPlaywright();
  if (s.cdpUrl) {
    try {
      return await chromium.connectOverCDP(s.cdpUrl, { timeout: LAUNCH_TIMEOUT_MS });
    } catch (e) {
      throw new BrowserUnavailableError(
        `could not connect to the browser at snowpea.browser.cdpUrl ${s.cdpUrl}: ${firstLine(e)}. ` +
          'Start it with --remote-debugging-port, or clear the setting to let Snowpea launch its own.',
      );
    }
  }
  const found = findBrowserExecutable(s.executablePath, search);
  if (!found.ok) throw new BrowserUnavailableError(found.message);
  try {
    return await chromium.launch({
      executablePath: found.path,
      headless: s.headless,
      args: [...CHROMIUM_ARGS, ...rootArgs()],
      env: scrubEnv(process.env),
      timeout: LAUNCH_TIMEOUT_MS,
    });
  } catch (e) {
    throw new BrowserUnavailableError(
      `could not start the browser at ${found.path}: ${firstLine(e)}. Check that it runs, or ${installHint(process.platform)}.`,
    );
  }
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0];
}
