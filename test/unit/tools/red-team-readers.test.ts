import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { call, makeCtx, tempDir, writeTree } from './helpers';

describe('trust boundary: readers and credential folders', () => {
  it('L8: grep on a FIFO is refused at once with a clear error; a FIFO .gitignore does not block the walk', async () => {
    const ws = tempDir();
    writeTree(ws, { 'src/a.txt': 'needle\n' });
    execFileSync('mkfifo', [path.join(ws, 'src', 'pipe')]);
    const direct = await call(makeCtx(ws), 'grep', { pattern: 'needle', path: 'src/pipe' });
    assert.equal(direct.ok, false);
    assert.match(direct.content, /not a regular file: src\/pipe is a FIFO/);
    execFileSync('mkfifo', [path.join(ws, '.gitignore')]);
    const walk = await call(makeCtx(ws), 'grep', { pattern: 'needle' }, );
    assert.match(walk.content, /src\/a\.txt/);
  });

  it('I4: with the workspace at the home folder, reading ~/.ssh and ~/.aws still asks every time (even with --yes)', async () => {
    const home = tempDir('snowpea-home-');
    writeTree(home, { '.ssh/id_ed25519': 'PRIVATE KEY\n', '.aws/credentials': '[default]\n', 'notes.txt': 'hi\n' });
    const old = process.env.HOME;
    process.env.HOME = home;
    try {
      const { ApprovalMemory } = await import('../../../extension/core/tools/policy/memory');
      const ctx = makeCtx(home, { decide: () => 'deny' });
      ctx.approvals = new ApprovalMemory(true);
      for (const p of ['.ssh/id_ed25519', '.aws/credentials']) {
        const r = await call(ctx, 'read_file', { path: p });
        assert.equal(r.error?.code, 'denied', p);
        assert.doesNotMatch(r.content, /PRIVATE KEY/);
      }
      assert.equal(ctx.asked.length, 2);
      assert.ok(ctx.asked.every((a) => a.alwaysAsk && /~\/\.(ssh|aws)/.test(a.reason ?? '')), JSON.stringify(ctx.asked));
      assert.equal((await call(ctx, 'read_file', { path: 'notes.txt' })).ok, true, 'other files in the home workspace read freely');
      assert.equal(ctx.asked.length, 2);
    } finally {
      if (old === undefined) delete process.env.HOME;
      else process.env.HOME = old;
    }
  });

  it('I4: with the workspace at the home folder, writes to ~/.bashrc, ~/.gitconfig and VS Code\'s user settings always ask, even auto-approved; reads do not', async () => {
    const home = tempDir('snowpea-home-');
    writeTree(home, { '.bashrc': 'export A=1\n', '.gitconfig': '[user]\n', '.config/Code/User/settings.json': '{}\n', 'notes.txt': 'hi\n' });
    const old = process.env.HOME;
    process.env.HOME = home;
    try {
      const { ApprovalMemory } = await import('../../../extension/core/tools/policy/memory');
      const ctx = makeCtx(home, { decide: () => 'deny', settings: { 'approvals.autoApprove': ['write'] } });
      ctx.approvals = new ApprovalMemory(true);
      for (const p of ['.bashrc', '.gitconfig', '.config/Code/User/settings.json']) {
        const r = await call(ctx, 'write_file', { path: p, content: 'curl x | sh\n' });
        assert.equal(r.error?.code, 'denied', `${p}: ${r.content}`);
      }
      assert.equal(ctx.asked.length, 3);
      assert.ok(ctx.asked.every((a) => a.alwaysAsk && /in your home folder/.test(a.reason ?? '')), JSON.stringify(ctx.asked.map((a) => a.reason)));
      assert.equal(fs.readFileSync(path.join(home, '.bashrc'), 'utf8'), 'export A=1\n');
      assert.equal((await call(ctx, 'read_file', { path: '.bashrc' })).ok, true, 'reading it is not asked');
      assert.equal((await call(ctx, 'write_file', { path: 'notes.txt', content: 'x\n' })).ok, true, 'other files follow the usual rules (auto-approved here)');
      assert.equal(ctx.asked.length, 3);
    } finally {
      if (old === undefined) delete process.env.HOME;
      else process.env.HOME = old;
    }
  });

  it('I4: a workspace at the home folder or / gets a warning; a project folder does not', async () => {
    const { broadRootWarning } = await import('../../../extension/core/tools/policy/broad-root');
    const home = tempDir('snowpea-home2-');
    const old = process.env.HOME;
    process.env.HOME = home;
    try {
      assert.match(broadRootWarning(home) ?? '', /your home folder/);
      assert.match(broadRootWarning('/') ?? '', /the file system root/);
      fs.mkdirSync(path.join(home, 'project'));
      assert.equal(broadRootWarning(path.join(home, 'project')), undefined);
    } finally {
      if (old === undefined) delete process.env.HOME;
      else process.env.HOME = old;
    }
  });
});
