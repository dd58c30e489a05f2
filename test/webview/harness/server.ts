import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createNonce, renderWebviewHtml } from '../../../extension/host/view/webview-html';

/**
 * Serves dist/ and the chat page on 127.0.0.1, the page made by the real renderWebviewHtml
 * (so the real CSP applies) with the fake host injected under the same nonce.
 */

export const distDir = path.resolve(__dirname, '../../../dist');
const fakeHostSource = fs.readFileSync(path.join(__dirname, 'fake-host.js'), 'utf8');

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.png': 'image/png',
};

/** A 1x1 PNG. */
export const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export interface PageOptions {
  /** What vscode.getState() returns at start (state saved before a hide/show). */
  initialState?: unknown;
}

export interface WebviewServer {
  origin: string;
  /** Registers a page and returns its URL. */
  pageUrl(options?: PageOptions): string;
  close(): Promise<void>;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** JSON inside an inline <script>: no `</script>` breakout. */
function scriptJson(x: unknown): string {
  return JSON.stringify(x ?? {}).replace(/</g, '\\u003c');
}

export async function startWebviewServer(): Promise<WebviewServer> {
  const pages = new Map<string, PageOptions>();
  let nextPage = 1;
  let origin = '';

  const renderPage = (options: PageOptions): string => {
    const nonce = createNonce();
    const html = renderWebviewHtml({
      cspSource: origin,
      scriptUri: `${origin}/dist/webview.js`,
      styleUri: `${origin}/dist/webview.css`,
      codiconsUri: `${origin}/dist/codicons/codicon.css`,
      nonce,
      title: 'Snowpea',
    });
    const fakeHost = `<script nonce="${nonce}">\n${fakeHostSource}\ninstallFakeHost(${scriptJson(options)});\n</script>\n`;
    return html.replace('</head>', `${fakeHost}</head>`);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/chat') {
      const options = pages.get(url.searchParams.get('page') ?? '');
      if (!options) return void res.writeHead(404).end('unknown page');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(renderPage(options));
    }
    if (url.pathname.startsWith('/dist/')) {
      const file = path.resolve(distDir, `.${decodeURIComponent(url.pathname.slice('/dist'.length))}`);
      if (!file.startsWith(distDir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream' });
      return void fs.createReadStream(file).pipe(res);
    }
    // Chromium asks for a favicon on its own; a webview never does.
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(404).end();
  });
  origin = await listen(server);

  return {
    origin,
    pageUrl(options = {}) {
      const id = String(nextPage++);
      pages.set(id, options);
      return `${origin}/chat?page=${id}`;
    },
    close: () => close(server),
  };
}

/** A server on another origin standing in for "the internet": it counts every request it gets. */
export interface RemoteServer {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startRemoteServer(): Promise<RemoteServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
    res.end(PIXEL_PNG);
  });
  const origin = await listen(server);
  return { origin, requests, close: () => close(server) };
}
