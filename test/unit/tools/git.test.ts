import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { call, makeCtx, tempDir, writeTree } from './helpers';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

function repo(): string {
  const ws = tempDir('snowpea-repo-');
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'config', 'user.email', 'test@example.invalid');
  git(ws, 'config', 'user.name', 'Test User');
  git(ws, 'config', 'commit.gpgsign', 'false');
  return ws;
}

describe('tools: git group', () => {
  it('outside a repository every git tool says so clearly', async () => {
    const ws = tempDir('snowpea-norepo-');
    for (const name of ['git_status', 'git_diff', 'git_log']) {
      const res = await call(makeCtx(ws), name, {});
      assert.equal(res.error?.code, 'failed', name);
      assert.match(res.content, /is not inside a git repository/, name);
    }
  });

  it('status, diff, log and commit in a temp repository', async () => {
    const ws = repo();
    const ctx = () => makeCtx(ws);
    assert.equal((await call(ctx(), 'git_log', {})).content, 'no commits yet');
    writeTree(ws, { 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    const st = await call(ctx(), 'git_status', {});
    assert.match(st.content, /^## No commits yet on main\n\?\? a\.txt\n\?\? b\.txt$/);

    const nothing = await call(ctx(), 'git_commit', { message: 'empty' });
    assert.match(nothing.content, /nothing is staged/);

    const c = makeCtx(ws);
    const first = await call(c, 'git_commit', { message: 'Add a', paths: ['a.txt'] });
    assert.equal(first.ok, true, first.content);
    assert.match(first.content, /^committed [0-9a-f]{7,}: Add a\n a\.txt \| 1 \+/);
    assert.equal(c.asked.length, 1, 'git_commit asked approval');
    assert.match(c.asked[0].summary, /git commit a\.txt: Add a/);
    assert.equal(git(ws, 'status', '--porcelain'), '?? b.txt\n', 'only the given path was committed');

    writeTree(ws, { 'a.txt': 'one\ntwo\n' });
    const diff = await call(ctx(), 'git_diff', {});
    assert.match(diff.content, /^diff --git a\/a\.txt b\/a\.txt/);
    assert.match(diff.content, /\n\+two$/);
    assert.equal((await call(ctx(), 'git_diff', { staged: true })).content, 'no staged changes');
    git(ws, 'add', 'a.txt');
    assert.match((await call(ctx(), 'git_diff', { staged: true, path: 'a.txt' })).content, /\+two/);
    assert.equal((await call(ctx(), 'git_diff', {})).content, 'no unstaged changes');

    const second = await call(ctx(), 'git_commit', { message: 'Extend a\n\nMore text.' });
    assert.match(second.content, /^committed [0-9a-f]+: Extend a/);
    const log = await call(ctx(), 'git_log', { max_count: 5 });
    const lines = log.content.split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^[0-9a-f]{7,} \d{4}-\d{2}-\d{2} Test User: Extend a$/);
    assert.match(lines[1], /Add a$/);
    assert.equal((await call(ctx(), 'git_log', { path: 'b.txt' })).content, 'no commits touch b.txt');
    assert.match((await call(ctx(), 'git_status', {})).content, /^## main\n\?\? b\.txt$/);
  });

  it('git_commit of a protected path always asks, and a denial commits nothing', async () => {
    const ws = repo();
    writeTree(ws, { '.env': 'KEY=1\n' });
    const ctx = makeCtx(ws, { settings: { 'approvals.autoApprove': ['git_commit', 'exec'] }, decide: () => 'deny' });
    const res = await call(ctx, 'git_commit', { message: 'oops', paths: ['.env'] });
    assert.equal(res.error?.code, 'denied');
    assert.equal(ctx.asked[0].alwaysAsk, true);
    assert.match(ctx.asked[0].reason!, /environment file/);
    assert.equal(git(ws, 'status', '--porcelain'), '?? .env\n');
  });

  it('a clean tree and a bad path are reported', async () => {
    const ws = repo();
    writeTree(ws, { 'x.txt': 'x\n' });
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'init');
    assert.equal((await call(makeCtx(ws), 'git_status', {})).content, '## main\nnothing to commit, working tree clean');
    const bad = await call(makeCtx(ws), 'git_commit', { message: 'm', paths: [path.join('no', 'such.txt')] });
    assert.equal(bad.error?.code, 'failed');
    assert.match(bad.content, /did not match any files/);
  });
});
