import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Writes files (workspace-relative or absolute) with their folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.isAbsolute(rel) ? rel : path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  }
}

export function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * Each test gets its own workspace, Snowpea home (SNOWPEA_HOME) and Claude Code user folder
 * (CLAUDE_CONFIG_DIR), so the machine's own ~/.claude and ~/.snowpea never count.
 */
export function libraryWorld(): { ws: string; home: string; claude: string } {
  const world = {} as { ws: string; home: string; claude: string };
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    world.ws = tempDir('sp-lib-ws-');
    world.home = tempDir('sp-lib-home-');
    world.claude = tempDir('sp-lib-claude-');
    for (const k of ['SNOWPEA_HOME', 'CLAUDE_CONFIG_DIR']) saved[k] = process.env[k];
    process.env.SNOWPEA_HOME = world.home;
    process.env.CLAUDE_CONFIG_DIR = world.claude;
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  return world;
}
