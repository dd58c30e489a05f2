import { loadCodeServer } from './code-server';
import { VsCodeSession, type SessionOptions } from './vscode-session';
import { findVsix } from './vsix';

/** The first run installs code-server (a few minutes, more on a busy machine); later runs find it cached. */
const INSTALL_TIMEOUT_MS = 20 * 60_000;

/**
 * Gives the enclosing mocha suite its own VS Code session: started in `before`, screenshot and
 * log saved after each failed test, everything stopped in `after` (files kept when a test failed).
 * Returns a getter for the session. `options` may be a function, called in `before` (after hooks
 * registered earlier, e.g. one that starts a scripted model server).
 */
export function useVsCode(options: SessionOptions | (() => SessionOptions | Promise<SessionOptions>) = {}): () => VsCodeSession {
  let session: VsCodeSession | undefined;
  let failed = false;

  before('install code-server (first run only)', async function () {
    findVsix(); // fail fast and clearly when there is nothing to test
    this.timeout(INSTALL_TIMEOUT_MS);
    await (await loadCodeServer()).ensureCodeServer();
  });

  before('start VS Code', async function () {
    session = await VsCodeSession.start(typeof options === 'function' ? await options() : options);
  });

  afterEach(async function () {
    const test = this.currentTest;
    if (!session || test?.state !== 'failed') return;
    failed = true;
    const shot = await session.saveFailure(test.fullTitle());
    console.error(`    screenshot: ${shot}\n    session files kept in ${session.dir}`);
  });

  after(async function () {
    await session?.close({ keepFiles: failed });
    session = undefined;
  });

  return () => {
    if (!session) throw new Error('VS Code session is not running (did the before hook fail?)');
    return session;
  };
}
