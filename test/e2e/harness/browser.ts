import * as fs from 'node:fs';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { loadCodeServer } from './code-server';
import { trackProcess, untrackProcess } from './cleanup';

/** Flags that work as root in containers (see notes/real-vscode.md). */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** Debian's Chromium (or $CHROMIUM_PATH); playwright-core never downloads a browser here. */
export function chromiumPath(): string {
  const override = process.env.CHROMIUM_PATH;
  if (override) return override;
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`No Chromium found (tried ${CANDIDATES.join(', ')}). Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  return found;
}

export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Launches Chromium as a browser server (so the harness knows its pid and can kill its tree on
 * exit) and connects to it.
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const { killTree } = await loadCodeServer();
  const server: BrowserServer = await chromium.launchServer({
    executablePath: chromiumPath(),
    headless: process.env.SNOWPEA_E2E_HEADED ? false : true,
    args: CHROMIUM_FLAGS,
    handleSIGINT: false,
    handleSIGTERM: false,
  });
  const pid = server.process().pid;
  if (pid) trackProcess(pid, killTree);
  const browser = await chromium.connect(server.wsEndpoint());
  return {
    browser,
    async close() {
      await browser.close().catch(() => undefined);
      await server.close().catch(() => undefined);
      if (pid) {
        killTree(pid, 'SIGKILL');
        untrackProcess(pid);
      }
    },
  };
}
