/**
 * VS Code ships ripgrep (`@vscode/ripgrep`) inside its install folder; grep uses it when no `rg`
 * is on PATH, so the editor rarely needs grep's slower JavaScript fallback.
 * No `vscode` import here: activate.ts passes `vscode.env.appRoot`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../../core/log';
import { setBundledRipgrep } from '../../core/tools/search/grep-rg';

/** Where VS Code keeps its ripgrep under appRoot: unpacked from the asar archive, or plain node_modules. */
export function ripgrepCandidates(appRoot: string, platform: NodeJS.Platform = process.platform): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  return ['node_modules.asar.unpacked', 'node_modules'].map((dir) => path.join(appRoot, dir, '@vscode', 'ripgrep', 'bin', exe));
}

/** The first candidate that is an executable file, or null. */
export function findVsCodeRipgrep(appRoot: string, platform: NodeJS.Platform = process.platform): string | null {
  for (const p of ripgrepCandidates(appRoot, platform)) {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

/** Hands VS Code's ripgrep to grep (used when none is on PATH); returns it, or null when VS Code has none. */
export function useVsCodeRipgrep(appRoot: string | undefined, log?: Logger): string | null {
  const rg = appRoot ? findVsCodeRipgrep(appRoot) : null;
  setBundledRipgrep(rg);
  log?.debug(rg ? `grep: VS Code's ripgrep is ${rg} (used when rg is not on PATH)` : `grep: no ripgrep found under ${appRoot}; the JavaScript fallback runs when rg is not on PATH`);
  return rg;
}
