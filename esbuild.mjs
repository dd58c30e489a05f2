// Builds Snowpea's three bundles: the extension (node, CJS, `vscode` external),
// the webview (browser, React, one JS + one CSS) and the CLI (node, with a shebang).
// Usage: node esbuild.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const outdir = 'dist';
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const versionDefine = { SNOWPEA_VERSION: JSON.stringify(pkg.version) };

/** Copies runtime assets the bundles locate at run time (sql.js wasm, codicons). */
function copyAssets() {
  fs.mkdirSync(outdir, { recursive: true });
  fs.copyFileSync('node_modules/sql.js/dist/sql-wasm.wasm', path.join(outdir, 'sql-wasm.wasm'));
  const codicons = 'node_modules/@vscode/codicons/dist';
  fs.mkdirSync(path.join(outdir, 'codicons'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(codicons, f), path.join(outdir, 'codicons', f));
}

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

/** Heavy packages stay out of the main bundles; code loads them lazily on first use. */
const lazyExternal = ['playwright-core', 'chromium-bidi', 'electron'];

const builds = [
  {
    ...common,
    entryPoints: { extension: 'extension/host/activate.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', ...lazyExternal],
    define: versionDefine,
  },
  {
    ...common,
    entryPoints: { cli: 'extension/cli/main.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: [...lazyExternal],
    define: versionDefine,
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: { webview: 'webview/src/main.tsx' },
    outdir,
    platform: 'browser',
    format: 'iife',
    target: ['chrome120'],
    jsx: 'automatic',
    loader: { '.svg': 'dataurl' },
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
  },
];

copyAssets();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[snowpea] watching for changes');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...b, metafile: true })));
  fs.chmodSync(path.join(outdir, 'cli.js'), 0o755);
  for (const r of results) {
    for (const [file, info] of Object.entries(r.metafile.outputs)) {
      if (!file.endsWith('.map')) console.log(`  ${file.padEnd(24)} ${(info.bytes / 1024).toFixed(1)} KB`);
    }
  }
}
