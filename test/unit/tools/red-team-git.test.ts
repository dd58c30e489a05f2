/** Red-team M6: the git tools never run programs a repository's config (or a planted git dir) names. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { call, makeCtx, tempDir, writeTree } from './helpers';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function repo(dir = tempDir('snowpea-rt-repo-')): string {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'test@example.invalid');
  git(dir, 'config', 'user.name', 'Test User');
  git(dir, 'config', 'commit.gpgsign', 'false');
  return dir;
}

/** Marker files live outside the workspace, where the repository's programs would create them. */
function markers(): (name: string) => string {
  const dir = tempDir('snowpea-rt-markers-');
  return (name) => path.join(dir, name);
}

/** The report's planted git dir: HEAD, config with core.fsmonitor, objects/ and refs/ at the workspace root, written with write_file. */
async function plantGitDir(ws: string, marker: string): Promise<void> {
  const files: Array<[string, string]> = [
    ['HEAD', 'ref: refs/heads/main\n'],
    ['objects/info/keep', ''],
    ['refs/heads/keep', ''],
    ['config', `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch ${marker}; echo"\n[diff]\n\texternal = "touch ${marker}.diff; echo"\n`],
  ];
  for (const [p, content] of files) {
    const res = await call(makeCtx(ws), 'write_file', { path: p, content });
    assert.equal(res.ok, true, res.content);
  }
}

describe('red team: git tools (M6)', () => {
  it('M6: a git dir planted at a workspace root without .git is not used: git_status says "not a git repository" and the fsmonitor never runs', async () => {
    const ws = tempDir('snowpea-rt-plant-');
    const m = markers();
    await plantGitDir(ws, m('fsmonitor-ran'));
    for (const name of ['git_status', 'git_diff', 'git_log']) {
      const res = await call(makeCtx(ws), name, {});
      assert.equal(res.error?.code, 'failed', `${name}: ${res.content}`);
      assert.match(res.content, /is not inside a git repository/, name);
      assert.match(res.content, /does not use the workspace root itself as a git folder/, name);
    }
    const commit = await call(makeCtx(ws), 'git_commit', { message: 'x', paths: ['HEAD'] });
    assert.match(commit.content, /is not inside a git repository/);
    assert.equal(fs.existsSync(m('fsmonitor-ran')), false, 'core.fsmonitor from the planted config ran');
    assert.equal(fs.existsSync(m('fsmonitor-ran.diff')), false, 'diff.external from the planted config ran');
  });

  it('M6: a workspace inside a repository uses the repository above, not a git dir planted at the workspace root', async () => {
    const top = repo();
    writeTree(top, { 'tracked.txt': 'one\n' });
    git(top, 'add', '.');
    git(top, 'commit', '-q', '-m', 'init');
    const ws = path.join(top, 'pkg');
    fs.mkdirSync(ws);
    const m = markers();
    await plantGitDir(ws, m('fsmonitor-ran'));
    const res = await call(makeCtx(ws), 'git_status', {});
    assert.equal(res.ok, true, res.content);
    assert.match(res.content, /^## main\n/, 'the status of the repository above');
    assert.match(res.content, /\?\? (pkg\/|\.\/)?$/m, 'the planted files are untracked files of that repository');
    assert.equal(fs.existsSync(m('fsmonitor-ran')), false);
  });

  it('M6: in a real repository, .git/config core.fsmonitor, diff.external and a textconv driver do not run from git_status, git_diff or git_log', async () => {
    const ws = repo();
    const m = markers();
    writeTree(ws, { 'a.txt': 'one\n', '.gitattributes': '*.txt diff=evil\n' });
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'init');
    git(ws, 'config', 'core.fsmonitor', `touch ${m('fsmonitor')}; echo`);
    git(ws, 'config', 'diff.external', `sh -c 'touch ${m('external')}'`);
    git(ws, 'config', 'diff.evil.textconv', `touch ${m('textconv')}; cat`);
    writeTree(ws, { 'a.txt': 'one\ntwo\n' });

    const status = await call(makeCtx(ws), 'git_status', {});
    assert.equal(status.ok, true, status.content);
    assert.match(status.content, /^## main\n M a\.txt$/);
    const diff = await call(makeCtx(ws), 'git_diff', {});
    assert.match(diff.content, /^diff --git a\/a\.txt b\/a\.txt[\s\S]*\n\+two$/, 'a plain diff, not the drivers');
    git(ws, '-c', 'core.fsmonitor=false', 'add', 'a.txt'); // staged without running the monitor here
    assert.match((await call(makeCtx(ws), 'git_diff', { staged: true })).content, /\+two/);
    assert.match((await call(makeCtx(ws), 'git_log', {})).content, /Test User: init/);
    for (const name of ['fsmonitor', 'external', 'textconv']) assert.equal(fs.existsSync(m(name)), false, `${name} ran`);

    // The same config does run programs when git is used plainly: the test above could fail.
    git(ws, 'status');
    assert.equal(fs.existsSync(m('fsmonitor')), true, 'control: plain git status runs core.fsmonitor');
    git(ws, 'diff', '--no-ext-diff', '--cached');
    assert.equal(fs.existsSync(m('textconv')), true, 'control: plain git diff runs the textconv driver');
  });

  it('M6: git_commit does not run a pre-commit hook planted in .git/hooks', async () => {
    const ws = repo();
    const m = markers();
    const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
    fs.writeFileSync(hook, `#!/bin/sh\ntouch ${m('hook')}\n`, { mode: 0o755 });
    writeTree(ws, { 'a.txt': 'one\n' });
    const res = await call(makeCtx(ws), 'git_commit', { message: 'Add a', paths: ['a.txt'] });
    assert.equal(res.ok, true, res.content);
    assert.match(res.content, /^committed [0-9a-f]+: Add a/);
    assert.equal(fs.existsSync(m('hook')), false, 'the pre-commit hook ran');

    writeTree(ws, { 'b.txt': 'bee\n' });
    git(ws, 'add', 'b.txt');
    git(ws, 'commit', '-q', '-m', 'plain');
    assert.equal(fs.existsSync(m('hook')), true, 'control: plain git commit runs the hook');
  });

  it('N13: a shipped .git/config with a clean filter and gpg.program with log.showSignature runs nothing from git_status, git_diff or git_log', async () => {
    const ws = repo();
    const m = markers();
    writeTree(ws, { 'a.txt': 'one\n', '.gitattributes': '* filter=x\n' });
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'first');
    // A commit with a signature header, as a downloaded repository may hold.
    const tree = git(ws, 'rev-parse', 'HEAD^{tree}').trim();
    const parent = git(ws, 'rev-parse', 'HEAD').trim();
    const body = `tree ${tree}\nparent ${parent}\nauthor T <t@example.invalid> 1700000000 +0000\ncommitter T <t@example.invalid> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----\n\nsigned\n`;
    const signed = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: ws, input: body, encoding: 'utf8' }).trim();
    git(ws, 'update-ref', 'refs/heads/main', signed);
    const gpg = m('evilgpg');
    fs.writeFileSync(gpg, `#!/bin/sh\ntouch ${m('gpg-ran')}\n`, { mode: 0o755 });
    git(ws, 'config', 'filter.x.clean', `touch ${m('filter-ran')} && cat`);
    git(ws, 'config', 'filter.x.smudge', `touch ${m('filter-ran')} && cat`);
    git(ws, 'config', 'log.showSignature', 'true');
    git(ws, 'config', 'gpg.program', gpg);
    // Stale index stat data, as in an unpacked archive: git re-reads (and would filter) the file.
    const old = new Date('2001-01-04T00:00:00Z');
    fs.utimesSync(path.join(ws, 'a.txt'), old, old);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'two\n');
    for (const name of ['git_status', 'git_diff', 'git_log']) {
      const res = await call(makeCtx(ws), name, {});
      assert.equal(res.ok, true, `${name}: ${res.content}`);
    }
    assert.equal(fs.existsSync(m('filter-ran')), false, 'the repository\'s clean filter ran');
    assert.equal(fs.existsSync(m('gpg-ran')), false, 'the repository\'s gpg.program ran');
    // Control: plain git with the same config does run them (the test would catch a regression).
    git(ws, 'status', '--short');
    assert.equal(fs.existsSync(m('filter-ran')), true, 'control: git itself runs the filter');
  });
});
