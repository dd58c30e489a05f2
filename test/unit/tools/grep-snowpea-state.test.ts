import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeGrepTool } from '../../../extension/core/tools/core/grep';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import { findRipgrep } from '../../../extension/core/tools/search/grep-rg';
import { ripgrepStateExcludes } from '../../../extension/core/tools/search/snowpea-state';
import { call, makeCtx, tempDir, writeTree } from './helpers';

/** Snowpea's state in a home folder (never searched) and the files beside it that are meant to be read. */
const STATE = [
  '.snowpea/state.db',
  '.snowpea/state.db.journal',
  '.snowpea/state.db.content/ab/cdef',
  '.snowpea/checkpoints/0123.workspace/objects/x',
  '.snowpea/scratch/session-1/outputs/grep-1.txt',
  '.snowpea/scratch/attachments/a.txt',
  '.snowpea/mcp/mcp-tools.json',
  '.snowpea/workspaces/0123/lock',
  '.snowpea/credentials.json',
  '.snowpea/key-origins.json',
  '.local/share/code-server/User/globalStorage/snowpea.snowpea/state.db',
  '.local/share/code-server/User/workspaceStorage/9f8e7d/snowpea.snowpea/scratch/out.txt',
];
const READABLE = [
  '.snowpea/settings.json',
  '.snowpea/instructions.md',
  '.snowpea/memory.md',
  '.snowpea/commands/review.md',
  '.snowpea/skills/tidy/SKILL.md',
  '.local/share/code-server/User/globalStorage/other.extension/notes.txt',
  'project/src/a.txt',
];

describe('grep and glob never search Snowpea\'s own state (issue 29)', function () {
  this.timeout(60_000);
  let top: string;
  let home: string;
  const saved = { HOME: process.env.HOME, SNOWPEA_HOME: process.env.SNOWPEA_HOME };
  beforeEach(() => {
    // A home folder inside the temp folder: a workspace at the home folder and one above it.
    top = fs.realpathSync(tempDir('snowpea-state-walk-'));
    home = path.join(top, 'home');
    writeTree(home, Object.fromEntries([...STATE, ...READABLE].map((f) => [f, 'needle\n'])));
    process.env.HOME = home;
    delete process.env.SNOWPEA_HOME;
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  const found = (content: string) => content.split('\n').map((l) => l.replace(/:1:needle$/, '')).sort();

  const backends: Array<[string, () => ToolRegistry]> = [['the JS search', () => new ToolRegistry([makeGrepTool({ ripgrep: null })])]];
  const rg = findRipgrep();
  // ripgrep is optional on user machines; where it is installed (as on CI), it skips the same files.
  if (rg) backends.push(['ripgrep', () => new ToolRegistry([makeGrepTool({ ripgrep: rg })])]);

  for (const [name, grep] of backends) {
    it(`${name}: a workspace at the home folder: everything but the state`, async () => {
      const res = await call(makeCtx(home), 'grep', { pattern: 'needle' }, grep());
      assert.deepEqual(found(res.content), [...READABLE].sort());
    });

    it(`${name}: a workspace above the home folder, and a search started inside ~/.snowpea`, async () => {
      const above = await call(makeCtx(top), 'grep', { pattern: 'needle' }, grep());
      assert.deepEqual(found(above.content), READABLE.map((f) => `home/${f}`).sort());
      const inside = await call(makeCtx(home), 'grep', { pattern: 'needle', path: '.snowpea' }, grep());
      assert.deepEqual(found(inside.content), READABLE.filter((f) => f.startsWith('.snowpea/')).sort());
    });
  }

  it('SNOWPEA_HOME moves the state that is skipped', async () => {
    process.env.SNOWPEA_HOME = path.join(home, 'elsewhere');
    writeTree(home, { 'elsewhere/state.db': 'needle\n', 'elsewhere/scratch/o.txt': 'needle\n' });
    const res = await call(makeCtx(home), 'grep', { pattern: 'needle', path: 'elsewhere' }, new ToolRegistry([makeGrepTool({ ripgrep: null })]));
    assert.match(res.content, /^no matches for \/needle\/ in elsewhere/);
    // ~/.snowpea is then an ordinary folder.
    const old = await call(makeCtx(home), 'grep', { pattern: 'needle', path: '.snowpea/scratch' }, new ToolRegistry([makeGrepTool({ ripgrep: null })]));
    assert.deepEqual(found(old.content), ['.snowpea/scratch/attachments/a.txt', '.snowpea/scratch/session-1/outputs/grep-1.txt']);
  });

  it('glob lists no state file', async () => {
    const res = await call(makeCtx(home), 'glob', { pattern: '**/*' });
    assert.deepEqual(res.content.split('\n').filter((l) => !l.startsWith('[')).sort(), [...READABLE].sort());
  });

  it('ripgrep gets the same exclusions as globs anchored at its working folder', () => {
    const h = path.join(path.sep, 'u', 'me');
    assert.deepEqual(ripgrepStateExcludes(path.join(path.sep, 'u'), path.join(h, '.snowpea')), [
      '!**/globalStorage/snowpea.snowpea',
      '!**/workspaceStorage/*/snowpea.snowpea',
      '!/me/.snowpea/state.db*',
      '!/me/.snowpea/checkpoints',
      '!/me/.snowpea/scratch',
      '!/me/.snowpea/mcp',
      '!/me/.snowpea/workspaces',
      '!/me/.snowpea/credentials.json',
      '!/me/.snowpea/key-origins.json',
    ]);
    assert.deepEqual(ripgrepStateExcludes(path.join(h, 'project'), path.join(h, '.snowpea')), ['!**/globalStorage/snowpea.snowpea', '!**/workspaceStorage/*/snowpea.snowpea']);
    assert.ok(ripgrepStateExcludes(path.join(path.sep, 'u'), path.join(path.sep, 'u', 'a[b]', '.snowpea')).includes('!/a\\[b\\]/.snowpea/scratch'));
  });
});
