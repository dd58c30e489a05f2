/**
 * Finds the user's Chromium, Chrome or Edge: `browser.executablePath` when set, else the
 * PATH, else the usual install locations. Snowpea never downloads a browser.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface BrowserSearchEnv {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  homedir: string;
  /** Whether an executable file is at this path. */
  isExecutable(p: string): boolean;
}

export function systemSearchEnv(): BrowserSearchEnv {
  return {
    platform: process.platform,
    env: process.env,
    homedir: os.homedir(),
    isExecutable(p) {
      try {
        if (!fs.statSync(p).isFile()) return false;
        if (process.platform !== 'win32') fs.accessSync(p, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}

const PATH_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'chrome',
  'microsoft-edge',
  'microsoft-edge-stable',
  'msedge',
];

function knownLocations(e: BrowserSearchEnv): string[] {
  if (e.platform === 'darwin') {
    const apps = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
    return [...apps.map((a) => path.posix.join('/Applications', a)), ...apps.map((a) => path.posix.join(e.homedir, 'Applications', a))];
  }
  if (e.platform === 'win32') {
    const roots = [e.env.LOCALAPPDATA, e.env.PROGRAMFILES, e.env['PROGRAMFILES(X86)'], e.env.ProgramFiles, e.env['ProgramFiles(x86)']].filter((r): r is string => !!r);
    const rels = ['Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe', 'Chromium\\Application\\chrome.exe'];
    return roots.flatMap((r) => rels.map((rel) => path.win32.join(r, rel)));
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/opt/microsoft/msedge/msedge',
  ];
}

function onPath(e: BrowserSearchEnv): string[] {
  const dirs = (e.env.PATH ?? e.env.Path ?? '').split(e.platform === 'win32' ? ';' : ':').filter(Boolean);
  const exts = e.platform === 'win32' ? ['.exe'] : [''];
  const join = e.platform === 'win32' ? path.win32.join : path.posix.join;
  return dirs.flatMap((d) => PATH_NAMES.flatMap((n) => exts.map((x) => join(d, n + x))));
}

export function installHint(platform: NodeJS.Platform): string {
  const how =
    platform === 'linux'
      ? 'install one (Debian/Ubuntu: sudo apt-get install chromium; Fedora: sudo dnf install chromium; or install Google Chrome)'
      : 'install Google Chrome, Chromium or Microsoft Edge';
  return `${how}, or set snowpea.browser.executablePath to the browser's executable`;
}

export type BrowserSearch = { ok: true; path: string } | { ok: false; message: string };

export function findBrowserExecutable(configured: string | null, e: BrowserSearchEnv = systemSearchEnv()): BrowserSearch {
  if (configured) {
    if (e.isExecutable(configured)) return { ok: true, path: configured };
    return { ok: false, message: `snowpea.browser.executablePath is ${configured}, but no executable file is there; fix the path, or clear it so Snowpea looks for Chromium, Chrome or Edge itself.` };
  }
  for (const p of [...onPath(e), ...knownLocations(e)]) if (e.isExecutable(p)) return { ok: true, path: p };
  return {
    ok: false,
    message: `no Chromium, Chrome or Edge was found on PATH (${PATH_NAMES.join(', ')}) or in the usual install locations. To use the browser tools, ${installHint(e.platform)}.`,
  };
}
