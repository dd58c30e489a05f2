import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkpointWorld, exists, read, signal, write } from './world';

const SID = 'c0ffee00-0000-4000-8000-00000000000e';

/** The paths a checkpoint's tree holds. */
function held(gitDir: string, turn: number): string[] {
  return execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', '--name-only', `refs/snowpea/${SID}/${turn}`], { encoding: 'utf8' }).split('\0').filter(Boolean);
}

describe('checkpoint coverage is not the repository\'s to decide (red team N6)', function () {
  this.timeout(60000);
  const w = checkpointWorld('sp-ckpt-n6');

  it('N6 K5: a restore never deletes a file that no checkpoint held (.env and a database the .gitignore hid, un-ignored by the turn)', async () => {
    write(w.ws, '.gitignore', '.env\ndata/\n');
    write(w.ws, '.env', 'STRIPE_KEY=sk_live_only_copy\n');
    write(w.ws, 'data/app.sqlite', 'db\n');
    write(w.ws, 'src/a.txt', 'hello\n');
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    // The turn: a plain write of .gitignore.
    write(w.ws, '.gitignore', 'node_modules/\n');
    const changes = await w.store.changedSince(SID, 1, signal());
    assert.ok(!changes.some((c) => c.path === '.env' || c.path.startsWith('data/')), `listed as changes of the turn: ${JSON.stringify(changes)}`);
    await w.store.restore(SID, 1, signal());
    assert.equal(read(w.ws, '.env').toString(), 'STRIPE_KEY=sk_live_only_copy\n', '.env survives the restore');
    assert.equal(read(w.ws, 'data/app.sqlite').toString(), 'db\n', 'the database survives the restore');
    assert.equal(read(w.ws, '.gitignore').toString(), '.env\ndata/\n', 'the .gitignore itself is restored');
  });

  it('N6 K6: a .gitignore of `*` does not switch checkpoints off: `rm -rf src` is restorable', async () => {
    write(w.ws, '.gitignore', '*\n!.gitignore\n!README.md\n');
    write(w.ws, 'README.md', '# r\n');
    write(w.ws, 'src/main.ts', 'export const x = 1;\n');
    write(w.ws, 'src/deep/util.ts', 'export const y = 2;\n');
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    execFileSync('sh', ['-c', 'rm -rf src'], { cwd: w.ws });
    const changes = await w.store.changedSince(SID, 1, signal());
    assert.deepEqual(changes.map((c) => `${c.path} ${c.status}`).sort(), ['src/deep/util.ts deleted', 'src/main.ts deleted']);
    await w.store.restore(SID, 1, signal());
    assert.equal(read(w.ws, 'src/main.ts').toString(), 'export const x = 1;\n');
    assert.equal(read(w.ws, 'src/deep/util.ts').toString(), 'export const y = 2;\n');
  });

  it('N6: Snowpea\'s own excludes (node_modules, build output, .venv) stay out whatever the .gitignore says', async () => {
    write(w.ws, '.gitignore', '!node_modules/\n');
    write(w.ws, 'node_modules/lib/index.js', 'x');
    write(w.ws, 'pkg/dist/bundle.js', 'x');
    write(w.ws, '.venv/bin/python', 'x');
    write(w.ws, 'src/a.ts', 'a');
    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    assert.deepEqual(held(w.store.repo.gitDir, 1), ['.gitignore', 'src/a.ts']);
  });

  it('N6: a file over checkpoints.maxFileMB is not held, is named, and a restore leaves it alone even once it shrinks', async () => {
    w.maxFileMB = 1;
    write(w.ws, 'big.bin', Buffer.alloc(1.5 * 1024 * 1024, 1));
    write(w.ws, 'a.txt', 'one\n');
    const r = await w.store.snapshot(SID, 1, signal());
    assert.equal(r.ok, true);
    assert.deepEqual(held(w.store.repo.gitDir, 1), ['a.txt']);
    assert.ok(w.log.lines.some((l) => /big\.bin/.test(l) && /not in the checkpoint/.test(l)), w.log.lines.join('\n'));
    write(w.ws, 'big.bin', 'small now\n');
    write(w.ws, 'a.txt', 'two\n');
    const plan = await w.store.restorePlan(SID, 1, signal());
    assert.deepEqual(plan.changes, [{ path: 'a.txt', status: 'modified' }]);
    assert.deepEqual(plan.leftAlone, ['big.bin']);
    await w.store.restore(SID, 1, signal());
    assert.equal(read(w.ws, 'big.bin').toString(), 'small now\n');
    assert.equal(read(w.ws, 'a.txt').toString(), 'one\n');
  });

  it('N6: over checkpoints.maxWorkspaceMB with every file, the .gitignore is the fallback, said once, and K5 still deletes nothing it hid', async () => {
    w.limitMB = 1;
    write(w.ws, '.gitignore', '.env\ndata/\n');
    write(w.ws, '.env', 'SECRET=1\n');
    for (let i = 0; i < 3; i++) write(w.ws, `data/part${i}.bin`, Buffer.alloc(600 * 1024, i));
    write(w.ws, 'src/a.txt', 'hello\n');
    await w.store.atTurnStart(SID, 1, signal());
    assert.equal((await w.store.list(SID)).length, 1);
    assert.equal(w.notices.length, 1, w.notices.join('\n'));
    assert.match(w.notices[0], /files your \.gitignore excludes are not in this workspace's checkpoints/);
    assert.deepEqual(held(w.store.repo.gitDir, 1), ['.gitignore', 'src/a.txt']);
    write(w.ws, '.gitignore', '\n');
    write(w.ws, 'src/new.txt', 'made by the turn\n');
    const plan = await w.store.restorePlan(SID, 1, signal());
    assert.deepEqual(plan.changes.map((c) => `${c.path} ${c.status}`), ['src/new.txt added', '.gitignore modified']);
    assert.deepEqual(plan.leftAlone.sort(), ['.env', 'data/part0.bin', 'data/part1.bin', 'data/part2.bin']);
    await w.store.restore(SID, 1, signal());
    assert.ok(exists(w.ws, '.env') && exists(w.ws, 'data/part2.bin'), 'never-held files are still there');
    assert.ok(!exists(w.ws, 'src/new.txt'), 'a file the turn made is removed');
  });

  it('N6: a restore removes only what the confirmed list named (a file made after the question stays)', async () => {
    write(w.ws, 'a.txt', 'one\n');
    await w.store.snapshot(SID, 1, signal());
    write(w.ws, 'a.txt', 'two\n');
    const confirmed = await w.store.changedSince(SID, 1, signal());
    write(w.ws, 'late.txt', 'written after the user confirmed\n');
    const restored = await w.store.restore(SID, 1, signal(), confirmed);
    assert.deepEqual(restored, [{ path: 'a.txt', status: 'modified' }]);
    assert.ok(exists(w.ws, 'late.txt'));
    assert.ok(fs.existsSync(path.join(w.ws, 'a.txt')));
  });

  it('N6: a checkpoint made before coverage was Snowpea\'s (no rules in its message) is read as taken under its own .gitignore', async () => {
    write(w.ws, '.gitignore', '.env\n');
    write(w.ws, '.env', 'SECRET=1\n');
    write(w.ws, 'a.txt', 'one\n');
    await w.store.snapshot(SID, 1, signal());
    // What the older version stored: the tree without the ignored file, a message without rules.
    const git = (args: string[], input?: string) => execFileSync('git', ['--git-dir', w.store.repo.gitDir, ...args], { encoding: 'utf8', input }).trim();
    const listing = git(['ls-tree', `refs/snowpea/${SID}/1`]).split('\n').filter((l) => !l.endsWith('\t.env'));
    const tree = git(['mktree'], listing.join('\n') + '\n');
    git(['update-ref', `refs/snowpea/${SID}/1`, git(['commit-tree', tree, '-m', `Snowpea checkpoint: session ${SID}, before turn 1`])]);
    write(w.ws, '.gitignore', 'tmp/\n');
    const plan = await w.store.restorePlan(SID, 1, signal());
    assert.deepEqual(plan, { changes: [{ path: '.gitignore', status: 'modified' }], leftAlone: ['.env'], nested: [], others: [] });
    await w.store.restore(SID, 1, signal());
    assert.equal(read(w.ws, '.env').toString(), 'SECRET=1\n');
  });
});
