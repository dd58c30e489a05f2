// Prints the sizes the README quotes, from the build on disk: `npm run package`, then `node scripts/sizes.mjs`.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const kb = (n) => `${Math.round(n / 1024).toLocaleString('en-US')} KB`;
const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const rows = ['extension.js', 'cli.js', 'webview.js', 'webview.css', 'sql-wasm.wasm', 'image-worker.js', 'grep-worker.js'].map((f) => {
  try {
    return `| \`dist/${f}\` | ${kb(statSync(join(dist, f)).size)} |`;
  } catch {
    return `| \`dist/${f}\` | missing (run npm run package) |`;
  }
});
const vsix = readdirSync(root).filter((f) => /^snowpea-.*\.vsix$/.test(f)).sort().pop();
if (vsix) rows.push(`| \`${vsix}\` | ${(statSync(join(root, vsix)).size / 2 ** 20).toFixed(2)} MB |`);
console.log(['| file | size |', '| --- | ---: |', ...rows].join('\n'));
