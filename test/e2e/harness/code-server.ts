import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './paths';

/** The parts of scripts/code-server.mjs the harness uses (that file is plain ESM JavaScript). */
export interface CodeServerHandle {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
  /** Resolves with the exit code (or signal) once code-server's main process ends. */
  exited: Promise<number | string | null>;
  /** The last part of code-server's stdout and stderr. */
  output(): string;
}

export interface StartOptions {
  workspace: string;
  userDataDir: string;
  extensionsDir: string;
  env?: Record<string, string>;
  port?: number;
  readyTimeoutMs?: number;
}

export interface CodeServerModule {
  CODE_SERVER_VERSION: string;
  ensureCodeServer(): Promise<{ codeServerBin: string; nodeBin: string }>;
  installExtension(vsixPath: string, dirs: { userDataDir: string; extensionsDir: string }): Promise<string>;
  startCodeServer(options: StartOptions): Promise<CodeServerHandle>;
  killTree(pid: number, signal?: NodeJS.Signals): void;
}

let loaded: Promise<CodeServerModule> | undefined;

export function loadCodeServer(): Promise<CodeServerModule> {
  loaded ??= import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'code-server.mjs')).href) as Promise<CodeServerModule>;
  return loaded;
}
