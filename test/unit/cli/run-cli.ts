import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';

export const root = path.resolve(__dirname, '../../..');
/** The bundle under test; SNOWPEA_TEST_CLI points the tests at another build (an older commit's, to see a test fail before its fix). */
export const cliBundle = process.env.SNOWPEA_TEST_CLI || path.join(root, 'dist/cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    newest = Math.max(newest, d.isDirectory() ? newestSource(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** The CLI is tested as users get it: the built bundle, rebuilt when a source is newer. */
export function ensureCliBundle(): void {
  if (process.env.SNOWPEA_TEST_CLI) return;
  const built = fs.existsSync(cliBundle) ? fs.statSync(cliBundle).mtimeMs : 0;
  if (built >= newestSource(path.join(root, 'extension'))) return;
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI in `cwd` with a private SNOWPEA_HOME. */
export function cli(args: string[], opts: { cwd: string; home: string; env?: Record<string, string>; onStdout?: (s: string, kill: () => void) => void }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliBundle, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, SNOWPEA_HOME: opts.home, OPENAI_API_KEY: 'sk-cli-secret', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      opts.onStdout?.(stdout, () => child.kill('SIGKILL'));
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}


/** A CLI test's world: a scripted model server, a real-path workspace and a private SNOWPEA_HOME, made before each test. */
export function cliWorld(prefix: string): { server: ScriptedServer; ws: string; home: string } {
  const world = {} as { server: ScriptedServer; ws: string; home: string };
  before(ensureCliBundle);
  beforeEach(async () => {
    world.server = await startScriptedServer();
    world.ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-ws-`)));
    world.home = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-home-`));
  });
  afterEach(async () => world.server.close());
  return world;
}
