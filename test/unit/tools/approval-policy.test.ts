import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planOf as planApproval } from './helpers';
import { call, makeCtx, registry, tempDir, writeTree } from './helpers';

describe('tools: approval policy', () => {
  const ws = tempDir();
  const outside = tempDir('snowpea-outside-');
  writeTree(ws, { 'a.txt': 'one\ntwo\n' });
  writeTree(outside, { 'o.txt': 'out\n' });
  fs.symlinkSync(outside, path.join(ws, 'link-out'));
  const tool = (n: string) => registry().get(n)!;

  it('read tools run freely inside the workspace', async () => {
    const ctx = makeCtx(ws);
    assert.equal((await call(ctx, 'read_file', { path: 'a.txt' })).ok, true);
    assert.equal((await call(ctx, 'grep', { pattern: 'one' })).ok, true);
    assert.equal(ctx.asked.length, 0);
  });

  it('a read outside the workspace (or through a link out of it) always asks, with the reason', async () => {
    const ctx = makeCtx(ws, { settings: { 'approvals.autoApprove': ['read', 'read_file'] } });
    assert.equal((await call(ctx, 'read_file', { path: path.join(outside, 'o.txt') })).ok, true);
    assert.equal((await call(ctx, 'read_file', { path: 'link-out/o.txt' })).ok, true);
    assert.equal(ctx.asked.length, 2);
    for (const req of ctx.asked) {
      assert.equal(req.alwaysAsk, true);
      assert.match(req.reason!, /outside the workspace/);
    }
  });

  it('write, exec and interact-type tools ask unless auto-approved by name or permission tag', () => {
    const ctx = makeCtx(ws);
    const w = planApproval(tool('write_file'), { path: 'b.txt', content: 'x\n' }, ctx);
    assert.equal(w.kind, 'ask');
    assert.deepEqual(w.kind === 'ask' && w.request, { tool: 'write_file', permission: 'write', summary: 'write b.txt (1 line)', alwaysAsk: false });
    const s = planApproval(tool('shell'), { command: 'npm test' }, ctx);
    assert.equal(s.kind === 'ask' && s.request.summary, 'run: npm test');
    assert.equal(s.kind === 'ask' && s.request.commandPrefix, 'npm test', 'the card offers "always allow npm test"');
    assert.equal(planApproval(tool('write_file'), { path: 'b.txt', content: '' }, makeCtx(ws, { settings: { 'approvals.autoApprove': ['write'] } })).kind, 'allow');
    assert.equal(planApproval(tool('shell'), { command: 'ls' }, makeCtx(ws, { settings: { 'approvals.autoApprove': ['shell'] } })).kind, 'allow');
    assert.equal(planApproval(tool('shell'), { command: 'ls' }, makeCtx(ws, { settings: { 'approvals.autoApprove': ['write'] } })).kind, 'ask');
  });

  it('protected paths always ask, even with autoApprove ["write"]', async () => {
    const auto = { settings: { 'approvals.autoApprove': ['write', 'write_file', 'edit_file'] } };
    for (const p of ['.vscode/settings.json', '.git/hooks/pre-commit', '.snowpea/settings.json', '.mcp.json', '.cursor/mcp.json', '.env.local']) {
      const plan = planApproval(tool('write_file'), { path: p, content: 'x' }, makeCtx(ws, auto));
      assert.equal(plan.kind, 'ask', p);
      assert.equal(plan.kind === 'ask' && plan.request.alwaysAsk, true, p);
      assert.ok(plan.kind === 'ask' && plan.request.reason, p);
    }
    const outsidePlan = planApproval(tool('write_file'), { path: path.join(outside, 'n.txt'), content: 'x' }, makeCtx(ws, auto));
    assert.equal(outsidePlan.kind === 'ask' && outsidePlan.request.alwaysAsk, true);
    assert.match(outsidePlan.kind === 'ask' ? outsidePlan.request.reason! : '', /outside the workspace/);
    // Reading a protected file inside the workspace is a plain read.
    assert.equal(planApproval(tool('read_file'), { path: '.env' }, makeCtx(ws)).kind, 'allow');
  });

  it('a denied call returns denied, says the user declined, and does not run', async () => {
    const ctx = makeCtx(ws, { decide: () => 'deny' });
    const res = await call(ctx, 'write_file', { path: 'denied.txt', content: 'x' });
    assert.equal(res.error?.code, 'denied');
    assert.match(res.content, /the user declined write denied\.txt/);
    assert.equal(fs.existsSync(path.join(ws, 'denied.txt')), false);
  });

  it('an approver that throws counts as not approved', async () => {
    const ctx = makeCtx(ws, { extra: { approver: { approve: async () => { throw new Error('no terminal'); } } } });
    const res = await call(ctx, 'shell', { command: 'touch never' });
    assert.equal(res.error?.code, 'denied');
    assert.match(res.content, /no terminal/);
    assert.equal(fs.existsSync(path.join(ws, 'never')), false);
  });

  it('an untrusted workspace runs read tools only', async () => {
    const ctx = makeCtx(ws, { settings: { 'approvals.autoApprove': ['write', 'exec'] }, extra: { workspaceTrusted: false } });
    const res = await call(ctx, 'write_file', { path: 'u.txt', content: 'x' });
    assert.equal(res.error?.code, 'policy_blocked');
    assert.match(res.content, /not trusted/);
    assert.equal((await call(ctx, 'read_file', { path: 'a.txt' })).ok, true);
  });

  it('an untrusted workspace does not run git, which a hostile .git/config can make run programs', async () => {
    const repo = tempDir('snowpea-hostile-repo-');
    const marker = path.join(tempDir(), 'fsmonitor-ran');
    execFileSync('git', ['init', '-q', repo]);
    writeTree(repo, { 'f.txt': 'x\n', 'hook.sh': `#!/bin/sh\ntouch '${marker}'\n` });
    fs.chmodSync(path.join(repo, 'hook.sh'), 0o755);
    execFileSync('git', ['-C', repo, 'config', 'core.fsmonitor', path.join(repo, 'hook.sh')]);

    const untrusted = makeCtx(repo, { extra: { workspaceTrusted: false } });
    for (const name of ['git_status', 'git_diff', 'git_log']) {
      const res = await call(untrusted, name, {});
      assert.equal(res.error?.code, 'policy_blocked', name);
      assert.match(res.content, /runs git, which follows the repository's config/);
    }
    assert.equal(fs.existsSync(marker), false, 'nothing from the repository ran');

    // Trusted, git runs hardened (core.fsmonitor off): the call works and the program still does not run.
    assert.equal((await call(makeCtx(repo), 'git_status', {})).ok, true);
    assert.equal(fs.existsSync(marker), false);
  });

  it('reads of Snowpea scratch files (full shell output) do not ask', async () => {
    const ctx = makeCtx(ws);
    fs.mkdirSync(ctx.scratchDir, { recursive: true });
    fs.writeFileSync(path.join(ctx.scratchDir, 'out.log'), 'log\n');
    assert.equal((await call(ctx, 'read_file', { path: path.join(ctx.scratchDir, 'out.log') })).ok, true);
    assert.equal(ctx.asked.length, 0);
    // ...but writing there is outside the workspace.
    assert.equal(planApproval(tool('write_file'), { path: path.join(ctx.scratchDir, 'x'), content: '' }, ctx).kind, 'ask');
  });

  it('shell with a cwd outside the workspace always asks', () => {
    const plan = planApproval(tool('shell'), { command: 'ls', cwd: outside }, makeCtx(ws, { settings: { 'approvals.autoApprove': ['exec'] } }));
    assert.equal(plan.kind === 'ask' && plan.request.alwaysAsk, true);
  });
});
