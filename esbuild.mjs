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

/** playwright-core is not bundled (it locates its own files at run time): it ships beside the bundles, minus its UI apps and types. */
function copyPlaywright() {
  const from = 'node_modules/playwright-core';
  const to = path.join(outdir, 'node_modules', 'playwright-core');
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(from, src).split(path.sep).join('/');
      return !(rel === 'lib/vite' || rel.startsWith('lib/vite/') || rel === 'types' || rel.startsWith('types/') || rel.endsWith('.d.ts') || rel.endsWith('.map'));
    },
  });
}

/** Copies runtime assets the bundles locate at run time (sql.js wasm, codicons, playwright-core). */
function copyAssets() {
  fs.mkdirSync(outdir, { recursive: true });
  fs.copyFileSync('node_modules/sql.js/dist/sql-wasm.wasm', path.join(outdir, 'sql-wasm.wasm'));
  const codicons = 'node_modules/@vscode/codicons/dist';
  fs.mkdirSync(path.join(outdir, 'codicons'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(codicons, f), path.join(outdir, 'codicons', f));
  copyPlaywright();
}

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

/**
 * Heavy packages stay out of the main bundles and load on first use: playwright-core (copied
 * to dist/node_modules), jimp (its own bundle at dist/node_modules/jimp, used by the image worker
 * and media_image_transform). `require('jimp')` from dist/*.js resolves there; from source
 * (tests) it resolves to the real package.
 */
const lazyExternal = ['playwright-core', 'chromium-bidi', 'electron', 'jimp'];

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
    entryPoints: { 'image-worker': 'extension/core/images/image-worker.ts', 'grep-worker': 'extension/core/tools/search/grep-worker.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['jimp'],
  },
  {
    ...common,
    entryPoints: { 'node_modules/jimp/index': 'extension/lazy/jimp.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: false,
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
  fs.writeFileSync(path.join(outdir, 'node_modules', 'jimp', 'package.json'), JSON.stringify({ name: 'jimp', private: true, main: 'index.js' }) + '\n');
  for (const r of results) {
    for (const [file, info] of Object.entries(r.metafile.outputs)) {
      if (!file.endsWith('.map')) console.log(`  ${file.padEnd(24)} ${(info.bytes / 1024).toFixed(1)} KB`);
    }
  }
}
