import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createBuiltinTools } from '../../../extension/core/tools/index';
import { BUILTIN_TOOL_NAMES } from '../../../extension/core/tools/names';

const root = path.resolve(__dirname, '../../..');

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? walk(p) : /\.tsx?$/.test(d.name) ? [p] : [];
  });
}

/** `memory` is also a deferred group's and a prompt part's name, so it is left out of the literal scan. */
const SCANNED = BUILTIN_TOOL_NAMES.filter((n) => n !== 'memory');

describe('architecture: tools are named through the name table or their traits', () => {
  it('every built-in tool has an entry in the name table and declares its traits', () => {
    const names = new Set<string>(BUILTIN_TOOL_NAMES);
    for (const t of createBuiltinTools()) {
      assert.ok(names.has(t.name), `${t.name} is not in tools/names.ts`);
      assert.equal(typeof t.traits?.readOnly, 'boolean', `${t.name} declares no traits`);
    }
  });

  it('no code outside a tool\'s own file names a tool by a string literal', () => {
    const offenders: string[] = [];
    for (const file of walk(path.join(root, 'extension'))) {
      if (file.endsWith(path.join('tools', 'names.ts'))) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const name of SCANNED) {
        if (!new RegExp(`(['"\`])${name}\\1`).test(text)) continue;
        // A tool's own file may use its name (labels, error messages about itself).
        if (text.includes(`name: TOOL.${name},`)) continue;
        offenders.push(`${path.relative(root, file)}: '${name}'`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});
