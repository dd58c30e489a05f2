import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SettingsSource } from './load';

/** The user's Snowpea home (`~/.snowpea`), overridable with SNOWPEA_HOME for tests and scripted use. */
export function snowpeaHome(): string {
  return process.env.SNOWPEA_HOME || path.join(os.homedir(), '.snowpea');
}

/** Claude Code's user folder (its commands, agents and skills are read): `CLAUDE_CONFIG_DIR` when set, as Claude Code reads it, else `~/.claude`. */
export function claudeHome(): string {
  return process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude');
}

/** Reads a JSON settings file as a source; a missing file is an empty source, a broken one an issue-carrying source. */
export function readSettingsFile(name: string, file: string, scope: SettingsSource['scope'] = 'user'): SettingsSource & { error?: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { name, scope, values: undefined };
  }
  try {
    return { name, scope, values: JSON.parse(text) };
  } catch (e) {
    return { name, scope, values: undefined, error: `settings file ${file} is not valid JSON: ${(e as Error).message}` };
  }
}

/** The file sources in precedence order (docs/design.md, Settings): user file, then workspace file. */
export function fileSources(workspaceRoot: string | undefined): Array<SettingsSource & { error?: string }> {
  const out = [readSettingsFile('user settings (~/.snowpea/settings.json)', path.join(snowpeaHome(), 'settings.json'))];
  if (workspaceRoot) out.push(readSettingsFile('workspace settings (.snowpea/settings.json)', path.join(workspaceRoot, '.snowpea', 'settings.json'), 'workspace'));
  return out;
}
