import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** The command ids the host registers: the keys of its command tables (a table, not a switch). */
function registeredIds(): Set<string> {
  const ids = new Set<string>();
  for (const file of ['extension/host/commands/commands.ts', 'extension/host/tree/tool-commands.ts']) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/^\s*'(snowpea\.[A-Za-z.]+)':/gm)) ids.add(m[1]);
  }
  return ids;
}

describe('architecture: contributed commands and their handlers', () => {
  it('every command in package.json has a handler, and every handler is contributed', () => {
    const contributed = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));
    const registered = registeredIds();
    assert.ok(registered.size >= 20, `found ${registered.size} handlers: the pattern still matches the tables`);
    assert.deepEqual([...contributed].filter((c) => !registered.has(c)), [], 'contributed without a handler');
    assert.deepEqual([...registered].filter((c) => !contributed.has(c)), [], 'a handler nobody can reach from the palette or a menu');
  });

  it('keybindings and menus name contributed commands (or the views the extension declares)', () => {
    const contributed = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));
    const named = [
      ...manifest.contributes.keybindings.map((k: { command: string }) => k.command),
      ...Object.values(manifest.contributes.menus as Record<string, Array<{ command?: string }>>).flatMap((items) => items.map((i) => i.command).filter(Boolean)),
    ] as string[];
    assert.deepEqual(named.filter((c) => !contributed.has(c)), []);
  });

  it('every palette command has the Snowpea category', () => {
    for (const c of manifest.contributes.commands) assert.equal(c.category, 'Snowpea', c.command);
  });
});
