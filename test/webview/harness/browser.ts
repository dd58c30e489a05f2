import * as fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (or CHROMIUM_PATH), driven by playwright-core: no browser download. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
