/**
 * The chat webview's HTML document. Pure (no `vscode` import) so the fake host in the
 * webview tests serves exactly what VS Code shows, under the same Content Security Policy.
 */
import { randomBytes } from 'node:crypto';

export interface WebviewHtmlOptions {
  /** `webview.cspSource`: the only origin images, styles and fonts may come from. */
  cspSource: string;
  /** URIs (already `asWebviewUri`-converted) of dist/webview.js, dist/webview.css, dist/codicons/codicon.css. */
  scriptUri: string;
  styleUri: string;
  codiconsUri: string;
  /** From createNonce(); a fresh one per render. */
  nonce: string;
  title: string;
}

/** A fresh script nonce: 128 random bits, hex. */
export function createNonce(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The policy: nothing by default; images only from the extension (cspSource) and data: URLs,
 * never remote (a remote image is an exfiltration channel); styles and fonts only from the
 * extension's files (no inline <style>, React's style props go through the CSSOM and stay
 * allowed); scripts only with this render's nonce.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
}

const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
/** `webview.cspSource`: one or more space-separated sources, e.g. `'self' https://*.vscode-cdn.net` in code-server. */
const CSP_TOKEN = `(?:'self'|[^\\s;'",]+)`;
const CSP_SOURCE = new RegExp(`^${CSP_TOKEN}(?: ${CSP_TOKEN})*$`);

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** For double-quoted attribute values. */
function attr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

export function renderWebviewHtml(o: WebviewHtmlOptions): string {
  if (!NONCE.test(o.nonce)) throw new Error('renderWebviewHtml: the nonce must be 16+ base64/hex characters (use createNonce())');
  if (!CSP_SOURCE.test(o.cspSource)) throw new Error(`renderWebviewHtml: unusable cspSource ${JSON.stringify(o.cspSource)}`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(o.codiconsUri)}">
<link rel="stylesheet" href="${attr(o.styleUri)}">
<title>${escapeText(o.title)}</title>
</head>
<body>
<div id="root"></div>
<script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>
`;
}
