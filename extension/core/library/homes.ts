import * as os from 'node:os';
import * as path from 'node:path';

/** Claude Code's user folder: `CLAUDE_CONFIG_DIR` when set (as Claude Code reads it), else `~/.claude`. */
export function claudeHome(): string {
  return process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude');
}
