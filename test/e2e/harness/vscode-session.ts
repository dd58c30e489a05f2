import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedBrowser } from './browser';
import { trackProcess, untrackProcess } from './cleanup';
import { loadCodeServer, type CodeServerHandle } from './code-server';
import { CACHE_ROOT, RESULTS_DIR } from './paths';
import { findVsix } from './vsix';
import { Workbench } from './workbench';

export interface SessionOptions {
  /** Extra user settings, e.g. `{ 'snowpea.model.baseUrl': 'http://127.0.0.1:1234/v1' }`. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server (the extension host inherits it). */
  env?: Record<string, string>;
  /** Files to create in the workspace folder, path -> content. */
  workspaceFiles?: Record<string, string>;
  /** Whether the workspace is trusted (default true). Pass false to test Restricted Mode. */
  trusted?: boolean;
  /** More .vsix files to install beside Snowpea (test-only extensions, e.g. a language-model provider). */
  extraExtensions?: string[];
  /** Open the workspace through a symlink to it (as a folder under macOS's /tmp is), not its real path. */
  openThroughSymlink?: boolean;
  /**
   * More folders, name -> files: the session opens a `.code-workspace` (a multi-root workspace)
   * whose first folder is the workspace folder and the next these, created beside it (`<dir>/<name>`).
   */
  moreFolders?: Record<string, Record<string, string>>;
}

/** Settings that keep the workbench quiet and predictable; tests add their own on top. */
const BASE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

const FIRST_LOAD_TIMEOUT_MS = 90_000;

/**
 * One real VS Code (code-server) with the packaged Snowpea installed, in fresh user-data and
 * extensions folders, opened in Chromium on a temporary workspace.
 */
export class VsCodeSession {
  private constructor(
    readonly dir: string,
    readonly workspace: string,
    readonly server: CodeServerHandle,
    private readonly launched: LaunchedBrowser,
    readonly page: Page,
    readonly workbench: Workbench,
    /** Errors and warnings from the browser console (workbench and webviews). */
    readonly consoleLog: string[],
  ) {}

  static async start(options: SessionOptions = {}): Promise<VsCodeSession> {
    const vsix = findVsix();
    const cs = await loadCodeServer();
    await cs.ensureCodeServer();
    const dir = path.join(CACHE_ROOT, `e2e-${crypto.randomBytes(4).toString('hex')}`);
    const userDataDir = path.join(dir, 'user-data');
    const extensionsDir = path.join(dir, 'extensions');
    const workspace = path.join(dir, 'workspace');
    writeSettings(userDataDir, {
      ...BASE_SETTINGS,
      'security.workspace.trust.enabled': options.trusted === false,
      ...options.settings,
    });
    writeWorkspace(workspace, options.workspaceFiles ?? { 'README.md': '# e2e workspace\n' });
    let opened = workspace;
    if (options.openThroughSymlink) {
      opened = path.join(dir, 'workspace-link');
      fs.symlinkSync(workspace, opened);
    }
    // A multi-root workspace: a .code-workspace file beside the folders, opened instead of the folder.
    let workspaceFile: string | undefined;
    if (options.moreFolders) {
      for (const [name, files] of Object.entries(options.moreFolders)) writeWorkspace(path.join(dir, name), files);
      workspaceFile = path.join(dir, 'multi.code-workspace');
      const folders = [{ path: opened }, ...Object.keys(options.moreFolders).map((name) => ({ path: path.join(dir, name) }))];
      fs.writeFileSync(workspaceFile, JSON.stringify({ folders, settings: {} }, null, 2));
    }
    for (const ext of [vsix, ...(options.extraExtensions ?? [])]) await cs.installExtension(ext, { userDataDir, extensionsDir });

    // Keep code-server's own files and Snowpea's home (~/.snowpea) inside the session folder.
    const env = {
      XDG_CONFIG_HOME: path.join(dir, 'xdg-config'),
      XDG_DATA_HOME: path.join(dir, 'xdg-data'),
      SNOWPEA_HOME: path.join(dir, 'snowpea-home'),
      // Claude Code's user folder (its commands, agents and skills are read): the session's own, not the machine's.
      CLAUDE_CONFIG_DIR: path.join(dir, 'claude-home'),
      ...options.env,
    };
    const server = await cs.startCodeServer({ workspace: workspaceFile ?? opened, userDataDir, extensionsDir, env });
    trackProcess(server.pid, cs.killTree);
    const consoleLog: string[] = [];
    let launched: LaunchedBrowser | undefined;
    let startedPage: Page | undefined;
    try {
      launched = await launchChromium();
      const context = await launched.browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      page.on('console', (msg) => {
        if (msg.type() === 'error' || msg.type() === 'warning') consoleLog.push(`[${msg.type()}] ${msg.text()}`);
      });
      page.on('pageerror', (err) => consoleLog.push(`[pageerror] ${err.stack ?? err.message}`));
      startedPage = page;
      const target = workspaceFile ? `workspace=${encodeURIComponent(workspaceFile)}` : `folder=${encodeURIComponent(opened)}`;
      await page.goto(`${server.url}?${target}`, { waitUntil: 'domcontentloaded', timeout: FIRST_LOAD_TIMEOUT_MS });
      const workbench = new Workbench(page);
      await workbench.waitUntilReady(FIRST_LOAD_TIMEOUT_MS);
      return new VsCodeSession(dir, workspace, server, launched, page, workbench, consoleLog);
    } catch (err) {
      const base = path.join(RESULTS_DIR, `startup-failure-${path.basename(dir)}`);
      fs.mkdirSync(RESULTS_DIR, { recursive: true });
      fs.writeFileSync(`${base}.console.log`, consoleLog.join('\n'));
      await startedPage?.screenshot({ path: `${base}.png` }).catch(() => undefined);
      await launched?.close();
      await server.stop();
      untrackProcess(server.pid);
      throw new Error(`VS Code did not come up (${base}.png; files in ${dir}): ${(err as Error).message}\n--- code-server output ---\n${server.output()}`, { cause: err });
    }
  }

  /** Changes user settings while VS Code runs (it watches the file), as the Settings editor would. */
  updateUserSettings(patch: Record<string, unknown>): void {
    const file = path.join(this.dir, 'user-data', 'User', 'settings.json');
    const current = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete current[k];
      else current[k] = v;
    }
    fs.writeFileSync(file, JSON.stringify(current, null, 2));
  }

  /** Saves a screenshot, code-server's log and the browser console under test-results/e2e/; returns the screenshot path. */
  async saveFailure(testTitle: string): Promise<string> {
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const base = path.join(RESULTS_DIR, testTitle.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').slice(0, 100));
    fs.writeFileSync(`${base}.code-server.log`, this.server.output());
    fs.writeFileSync(`${base}.console.log`, this.consoleLog.join('\n'));
    await this.page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
    return `${base}.png`;
  }

  /** Closes the browser, stops code-server and, unless asked to keep them, deletes the session's folders. */
  async close({ keepFiles = false } = {}): Promise<void> {
    await this.launched.close();
    await this.server.stop();
    untrackProcess(this.server.pid);
    if (!keepFiles) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function writeSettings(userDataDir: string, settings: Record<string, unknown>): void {
  const userDir = path.join(userDataDir, 'User');
  fs.mkdirSync(userDir, { recursive: true });
  fs.writeFileSync(path.join(userDir, 'settings.json'), JSON.stringify(settings, null, 2));
}

function writeWorkspace(workspace: string, files: Record<string, string>): void {
  fs.mkdirSync(workspace, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(workspace, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}
