import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { ChatPage, type OpenOptions } from './chat-page';
import { distDir, startRemoteServer, startWebviewServer, type RemoteServer, type WebviewServer } from './server';

export interface WebviewEnv {
  browser: Browser;
  server: WebviewServer;
  remote: RemoteServer;
  /** Opens the chat page (closed after the test) and waits for its `ready`. */
  open(options?: OpenOptions): Promise<ChatPage>;
}

export function assertBundleBuilt(): void {
  const bundle = path.join(distDir, 'webview.js');
  if (!fs.existsSync(bundle)) {
    throw new Error(`${path.relative(process.cwd(), bundle)} is missing: build first (npm run build; npm run test:webview builds before testing)`);
  }
}

/** Registers before/after hooks in the calling describe: one Chromium and servers per file, pages per test. */
export function useWebviewEnv(): WebviewEnv {
  const opened: ChatPage[] = [];
  const env = {} as WebviewEnv;

  before(async function () {
    assertBundleBuilt();
    env.server = await startWebviewServer();
    env.remote = await startRemoteServer();
    env.browser = await launchChromium();
    env.open = async (options) => {
      const page = await ChatPage.open(env.browser, env.server, options);
      opened.push(page);
      return page;
    };
  });

  afterEach(async () => {
    for (const p of opened.splice(0)) await p.close();
  });

  after(async () => {
    await env.browser?.close();
    await env.server?.close();
    await env.remote?.close();
  });

  return env;
}
