#!/usr/bin/env node
// `npm run screenshots`: refreshes the README's screenshots in media/screenshots/.
// Packages the extension when snowpea-<version>.vsix is missing or older than its sources (or with
// --package), then runs test/e2e/screenshots.shots.ts in code-server against the scripted model, with
// SNOWPEA_SCREENSHOTS_DIR=media/screenshots. Other arguments go to mocha, e.g.
//   npm run screenshots -- --grep approval-card     retake one shot
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS_DIR = join(REPO_ROOT, 'media', 'screenshots');
/** What goes into the .vsix: a change to any of these makes it stale. */
const SOURCES = ['extension', 'webview', 'media', 'package.json', 'esbuild.mjs', '.vscodeignore'];

/** The newest modification time of the files under `path` (a file or a folder), media/screenshots left out. */
function newestMtime(path) {
  if (path === SHOTS_DIR || !existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function run(cmd, args, env = {}) {
  console.log(`> ${[cmd, ...args].join(' ')}`);
  const res = spawnSync(cmd, args, { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.status !== 0) {
    console.error(`screenshots: \`${[cmd, ...args].join(' ')}\` failed (exit ${res.status ?? res.signal}); see its output above`);
    process.exit(1);
  }
}

const args = process.argv.slice(2);
const forcePackage = args.includes('--package');
const mochaArgs = args.filter((a) => a !== '--package');
const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
const vsix = join(REPO_ROOT, `snowpea-${version}.vsix`);
const sourcesTime = Math.max(...SOURCES.map((p) => newestMtime(join(REPO_ROOT, p))));
if (forcePackage || !existsSync(vsix) || statSync(vsix).mtimeMs < sourcesTime) run('npm', ['run', 'package']);
else console.log(`screenshots: ${vsix} is newer than its sources; not packaging again (--package to force)`);

run('npx', ['mocha', '--node-option', 'import=tsx', '--timeout', '180000', '--exit', ...mochaArgs, 'test/e2e/screenshots.shots.ts'], {
  SNOWPEA_SCREENSHOTS_DIR: SHOTS_DIR,
  SNOWPEA_E2E_VSIX: vsix,
});
for (const name of readdirSync(SHOTS_DIR).filter((f) => f.endsWith('.png')).sort()) {
  console.log(`  media/screenshots/${name}  ${Math.round(statSync(join(SHOTS_DIR, name)).size / 1024)} KB`);
}
