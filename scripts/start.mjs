#!/usr/bin/env node
// `npm start`: builds the .vsix, then opens Snowpea in a VS Code.
//   - A desktop `code` CLI on PATH: installs the .vsix there and opens the folder.
//   - Otherwise: installs (once) and starts code-server, VS Code in the browser, on 127.0.0.1 and
//     prints the address to open. Ctrl+C (or SIGINT/SIGTERM to this process or to npm) stops it.
//     Every folder opens in the same profile (user settings, keys, sessions), one per clone.
// Usage: npm start [-- [folder] [--web] [--port N]]
//   folder   the workspace to open (default: the current folder)
//   --web    use code-server even when a desktop `code` is on PATH
//   --port   the port for code-server (default: $PORT, else a free one)
import { spawnSync } from 'node:child_process';
import { accessSync, appendFileSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCodeServer, installExtension, sessionDir, startCodeServer } from './code-server.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const opts = { folder: process.cwd(), web: false, port: process.env.PORT ? Number(process.env.PORT) : undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--web') opts.web = true;
    else if (arg === '--port') opts.port = Number(argv[++i]);
    else if (arg.startsWith('--port=')) opts.port = Number(arg.slice('--port='.length));
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else opts.folder = resolve(arg);
  }
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port > 0 && opts.port < 65536)) {
    throw new Error('--port needs a number between 1 and 65535');
  }
  if (!existsSync(opts.folder)) throw new Error(`folder not found: ${opts.folder}`);
  return opts;
}

/** The full path of an executable on PATH, or undefined. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function buildVsix() {
  const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  console.log('> npm run package');
  const res = spawnSync('npm', ['run', 'package'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('`npm run package` failed; see its output above');
  const vsix = join(REPO_ROOT, `snowpea-${version}.vsix`);
  if (!existsSync(vsix)) throw new Error(`\`npm run package\` did not produce ${vsix}`);
  return vsix;
}

function openInDesktop(code, vsix, folder) {
  console.log(`> code --install-extension ${vsix} --force`);
  const install = spawnSync(code, ['--install-extension', vsix, '--force'], { stdio: 'inherit' });
  if (install.status !== 0) throw new Error('`code --install-extension` failed');
  spawnSync(code, [folder], { stdio: 'inherit' });
  console.log(`\nSnowpea is installed in VS Code and ${folder} is open: look for the Snowpea icon in the activity bar.`);
}

/**
 * User settings the start profile begins with, each written only when the user has not set it:
 * code-server opens its own Chat in the secondary side bar on first start, which takes a third of
 * the window from the editor and offers a sign-in that goes nowhere here.
 */
export const PROFILE_DEFAULTS = {
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
};

/** Adds the PROFILE_DEFAULTS the user's settings.json lacks, keeping its comments and every value it has. */
export function applyProfileDefaults(userDataDir, defaults = PROFILE_DEFAULTS) {
  const file = join(userDataDir, 'User', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '{}\n';
  const errors = [];
  const current = parse(text, errors, { allowTrailingComma: true });
  if (errors.length || current === null || typeof current !== 'object' || Array.isArray(current)) {
    console.warn(`npm start: ${file} is not a JSON object; leaving it as it is`);
    return;
  }
  const missing = Object.entries(defaults).filter(([key]) => !(key in current));
  for (const [key, value] of missing) {
    text = applyEdits(text, modify(text, [key], value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  }
  if (missing.length) writeFileSync(file, text);
}

async function openInBrowser(vsix, folder, port) {
  await ensureCodeServer();
  const dir = sessionDir('start', folder);
  const dirs = { userDataDir: join(dir, 'user-data'), extensionsDir: join(dir, 'extensions') };
  console.log(`> installing ${vsix} into code-server (profile ${dir})`);
  await installExtension(vsix, dirs);
  applyProfileDefaults(dirs.userDataDir);
  const logFile = join(dir, 'code-server.log');
  mkdirSync(dir, { recursive: true });
  writeFileSync(logFile, '');
  const server = await startCodeServer({
    workspace: folder,
    ...dirs,
    port,
    readyTimeoutMs: 120_000,
    onOutput: (text) => appendFileSync(logFile, text),
  });
  console.log(`\nSnowpea is running in VS Code in the browser. Open:\n\n  ${server.url}?folder=${encodeURIComponent(folder)}\n\nIts log: ${logFile}\nCtrl+C stops it.`);
  let stopping = false;
  const shutdown = async (why) => {
    if (stopping) return;
    stopping = true;
    console.log(`\nstopping code-server${why ? ` (${why})` : ''}...`);
    await server.stop();
    process.exit(0);
  };
  // npm passes SIGINT and SIGTERM on to this process (the package.json script execs node, so no
  // shell sits between them that would keep them); a terminal's Ctrl+C reaches the whole group.
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGHUP', () => void shutdown('the terminal closed'));
  // npm killed outright (SIGKILL): this process is handed to another parent; code-server goes too.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void shutdown('npm is gone'), 1000).unref();
  const status = await server.exited;
  if (!stopping) {
    console.error(`code-server stopped on its own (${status}); last output:\n${server.output()}`);
    process.exit(1);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const vsix = buildVsix();
  const code = opts.web ? undefined : onPath('code');
  if (code) openInDesktop(code, vsix, opts.folder);
  else await openInBrowser(vsix, opts.folder, opts.port);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`npm start: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}
