import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { protectedReason, resolveToolPath } from '../../../extension/core/tools/paths';
import { tempDir, writeTree } from './helpers';

describe('tools: path safety', () => {
  const outside = tempDir('snowpea-outside-');
  const ws = tempDir();
  writeTree(ws, { 'src/a.ts': 'a\n' });
  writeTree(outside, { 'secret.txt': 's\n' });
  fs.symlinkSync(outside, path.join(ws, 'escape'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'secret-link'));
  fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
  fs.symlinkSync(path.join(ws, '.git'), path.join(ws, 'innocent'));

  it('resolves relative paths inside the workspace with a relative display', () => {
    const r = resolveToolPath(ws, 'src/a.ts');
    assert.equal(r.real, path.join(ws, 'src/a.ts'));
    assert.equal(r.inside, true);
    assert.equal(r.exists, true);
    assert.equal(r.display, 'src/a.ts');
    assert.equal(resolveToolPath(ws, '.').display, '.');
    assert.equal(resolveToolPath(ws, path.join(ws, 'src')).display, 'src');
  });

  it('classifies .. and absolute paths outside the workspace', () => {
    const up = resolveToolPath(ws, '../x.txt');
    assert.equal(up.inside, false);
    assert.equal(up.display, path.join(path.dirname(ws), 'x.txt'));
    assert.equal(resolveToolPath(ws, '/etc/passwd').inside, false);
    assert.equal(resolveToolPath(ws, 'src/../../y').inside, false);
  });

  it('follows symlinks that escape the workspace, for files, folders and files that do not exist yet', () => {
    assert.equal(resolveToolPath(ws, 'secret-link').inside, false);
    const viaDir = resolveToolPath(ws, 'escape/secret.txt');
    assert.equal(viaDir.inside, false);
    assert.equal(viaDir.real, path.join(outside, 'secret.txt'));
    const newFile = resolveToolPath(ws, 'escape/deeper/new.txt');
    assert.equal(newFile.inside, false);
    assert.equal(newFile.exists, false);
    assert.equal(newFile.real, path.join(outside, 'deeper/new.txt'));
    const dangling = resolveToolPath(ws, 'dangling');
    assert.equal(dangling.inside, false, 'a dangling link pointing outside is outside');
    assert.equal(dangling.real, path.join(outside, 'not-yet.txt'));
  });

  it('a not-yet-existing path inside stays inside', () => {
    const r = resolveToolPath(ws, 'new/dir/file.ts');
    assert.equal(r.inside, true);
    assert.equal(r.exists, false);
    assert.equal(r.display, 'new/dir/file.ts');
  });

  it('names protected paths: .git, .vscode, .snowpea, MCP configs, .env*', () => {
    for (const p of ['.git/config', '.git/hooks/pre-commit', 'sub/.git/HEAD', '.vscode/settings.json', '.vscode/mcp.json', '.snowpea/settings.json', '.mcp.json', 'mcp.json', '.cursor/mcp.json', '.env', '.env.local', 'app/.env.production', '.VSCode/tasks.json']) {
      assert.ok(protectedReason(p), p);
    }
    for (const p of ['src/a.ts', 'environment.ts', 'docs/git.md', 'README.md', 'gitconfig']) assert.equal(protectedReason(p), undefined, p);
    assert.match(protectedReason('.env')!, /environment file/);
    assert.match(protectedReason('.vscode/mcp.json')!, /MCP server config/);
    assert.match(protectedReason('.git/config')!, /\.git folder/);
  });

  it('a link whose target is protected is protected', () => {
    assert.match(resolveToolPath(ws, 'innocent/config').protectedReason ?? '', /\.git folder/);
  });
});
