import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const tools = path.resolve(__dirname, '../../../extension/core/tools');

/** Every file under extension/core/tools with the group its defineTool names (text scan: `group: '<name>'`). */
function definitions(): Array<{ file: string; group: string }> {
  return fs
    .readdirSync(tools, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => {
      const text = fs.readFileSync(path.join(tools, f), 'utf8');
      if (!/\bdefineTool\(/.test(text)) return [];
      return [...text.matchAll(/^\s+group: '([^']+)',/gm)].map((m) => ({ file: f.split(path.sep).join('/'), group: m[1] }));
    });
}

describe('architecture: tool folders are tool groups', () => {
  it('each built-in tool is defined in the folder named for its group (core/, fs/, git/, browser/, media/, memory/, todo/)', () => {
    const found = definitions();
    assert.ok(found.length >= 30, `the scan finds the tools (${found.length})`);
    const misplaced = found.filter((d) => path.posix.dirname(d.file) !== d.group).map((d) => `${d.file} (group ${d.group})`);
    assert.deepEqual(misplaced, []);
  });
});
