import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diffStatLine } from '../../../extension/core/checkpoints';
import { checkpointWorld, exists, read, signal, write } from './world';

const SID = '6f1c2a9e-0d1b-4c55-9e0f-1a2b3c4d5e6f';

describe('checkpoint store (issue 19: checkpoints)', function () {
  this.timeout(30000);
  const w = checkpointWorld('sp-ckpt');

  it('issue 19 checkpoints: restore rewrites a modified file, recreates one a shell rm deleted, and removes a file created since', async () => {
    write(w.ws, 'src/a.ts', 'export const a = 1;\n');
    write(w.ws, 'gone.txt', 'keep me\n');
    const r = await w.store.snapshot(SID, 1, signal());
    assert.equal(r.ok, true, JSON.stringify(r));

    write(w.ws, 'src/a.ts', 'export const a = 2;\nexport const b = 3;\n');
    execFileSync('sh', ['-c', 'rm gone.txt'], { cwd: w.ws });
    write(w.ws, 'new/dir/fresh.txt', 'created by the agent\n');

    const changed = await w.store.changedSince(SID, 1, signal());
    assert.deepEqual(
      changed.sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: 'gone.txt', status: 'deleted' },
        { path: 'new/dir/fresh.txt', status: 'added' },
        { path: 'src/a.ts', status: 'modified' },
      ],
    );
    const restored = await w.store.restore(SID, 1, signal());
    assert.equal(restored.length, 3);
    assert.equal(read(w.ws, 'src/a.ts').toString(), 'export const a = 1;\n');
    assert.equal(read(w.ws, 'gone.txt').toString(), 'keep me\n');
    assert.ok(!exists(w.ws, 'new/dir/fresh.txt'), 'the file created since is removed');
    assert.ok(!exists(w.ws, 'new'), 'and the folders only it filled');
    assert.deepEqual(await w.store.changedSince(SID, 1, signal()), [], 'nothing differs after the restore');
  });

  it('issue 19 checkpoints: a file deleted and recreated with other content comes back as it was', async () => {
    write(w.ws, 'notes.md', 'first version\n');
    await w.store.snapshot(SID, 1, signal());
    fs.rmSync(path.join(w.ws, 'notes.md'));
    write(w.ws, 'notes.md', 'second version, longer\n');
    assert.deepEqual(await w.store.changedSince(SID, 1, signal()), [{ path: 'notes.md', status: 'modified' }]);
    await w.store.restore(SID, 1, signal());
    assert.equal(read(w.ws, 'notes.md').toString(), 'first version\n');
  });

  it('issue 19 checkpoints: binary and CRLF files restore byte for byte, whatever .gitattributes says', async () => {
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256));
    const crlf = Buffer.from('line one\r\nline two\r\nno newline at end', 'latin1');
    write(w.ws, '.gitattributes', '* text=auto eol=lf\n*.txt text eol=crlf\n');
    write(w.ws, 'img.bin', binary);
    write(w.ws, 'win.txt', crlf);
    write(w.ws, 'mixed.cfg', Buffer.from('a\r\nb\nc\r\n'));
    await w.store.snapshot(SID, 1, signal());
    write(w.ws, 'img.bin', Buffer.from('not the picture'));
    write(w.ws, 'win.txt', 'line one\nline two\n');
    fs.rmSync(path.join(w.ws, 'mixed.cfg'));

    const stats = await w.store.diffStat(SID, 1, signal());
    assert.deepEqual(stats.find((s) => s.path === 'img.bin'), { path: 'img.bin', status: 'modified', added: null, removed: null });
    await w.store.restore(SID, 1, signal());
    assert.ok(read(w.ws, 'img.bin').equals(binary), 'binary bytes equal');
    assert.ok(read(w.ws, 'win.txt').equals(crlf), 'CRLF bytes equal');
    assert.ok(read(w.ws, 'mixed.cfg').equals(Buffer.from('a\r\nb\nc\r\n')), 'mixed line endings equal');
  });

  it('issue 19 checkpoints (as red team N6 changed it): files the .gitignore excludes are recorded and restored; Snowpea\'s excludes and the workspace .git are never recorded', async () => {
    write(w.ws, '.gitignore', 'build/\n*.log\n');
    write(w.ws, 'sub/.gitignore', 'local.txt\n');
    write(w.ws, 'build/out.js', 'v1');
    write(w.ws, 'debug.log', 'v1');
    write(w.ws, 'sub/local.txt', 'v1');
    write(w.ws, 'kept.txt', 'v1');
    await w.store.snapshot(SID, 1, signal());
    for (const f of ['build/out.js', 'debug.log', 'sub/local.txt', 'kept.txt']) write(w.ws, f, 'v2');
    write(w.ws, 'build/new.js', 'v2');

    assert.deepEqual(await w.store.changedSince(SID, 1, signal()), ['debug.log', 'kept.txt', 'sub/local.txt'].map((path) => ({ path, status: 'modified' })));
    await w.store.restore(SID, 1, signal());
    for (const f of ['kept.txt', 'debug.log', 'sub/local.txt']) assert.equal(read(w.ws, f).toString(), 'v1', f);
    for (const f of ['build/out.js', 'build/new.js']) assert.equal(read(w.ws, f).toString(), 'v2', f);
    const tree = execFileSync('git', ['--git-dir', w.store.repo.gitDir, 'ls-tree', '-r', '--name-only', `refs/snowpea/${SID}/1`], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    assert.deepEqual(tree.trim().split('\n').sort(), ['.gitignore', 'debug.log', 'kept.txt', 'sub/.gitignore', 'sub/local.txt']);
    assert.ok(!w.store.repo.gitDir.startsWith(w.ws), 'the shadow repository is outside the workspace');
  });

  it('issue 19 checkpoints: list gives each turn with its time and message line; forget removes the session\'s refs only', async () => {
    write(w.ws, 'a.txt', '1');
    const before = Date.now() - 2000;
    await w.store.snapshot(SID, 1, signal());
    write(w.ws, 'a.txt', '2');
    await w.store.snapshot(SID, 2, signal());
    await w.store.snapshot('other-session', 1, signal());
    const transcript = [
      { role: 'user' as const, content: 'fix the parser\nand add tests' },
      { role: 'assistant' as const, content: 'done' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: '\n  now the docs' }] },
    ];
    const list = await w.store.list(SID, transcript);
    assert.deepEqual(list.map((c) => [c.turn, c.message]), [[1, 'fix the parser'], [2, 'now the docs']]);
    assert.ok(list.every((c) => c.time >= before && c.time <= Date.now() + 2000));

    await w.store.forget(SID);
    assert.deepEqual(await w.store.list(SID), []);
    const refs = execFileSync('git', ['--git-dir', w.store.repo.gitDir, 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    assert.equal(refs.trim(), 'refs/snowpea/other-session/1');
    await assert.rejects(w.store.changedSince(SID, 1, signal()), /has no checkpoint before turn 1/);
  });

  it('issue 19 checkpoints: the diff stat names each file with its line counts', async () => {
    write(w.ws, 'src/a.ts', 'one\ntwo\n');
    write(w.ws, 'old.txt', 'x\ny\n');
    await w.store.snapshot(SID, 1, signal());
    write(w.ws, 'src/a.ts', 'one\n2\n3\n4\n5\n');
    fs.rmSync(path.join(w.ws, 'old.txt'));
    write(w.ws, 'pic.bin', Buffer.from([0, 1, 2, 0, 255]));
    const stats = await w.store.diffStat(SID, 1, signal());
    assert.equal(diffStatLine(stats.sort((a, b) => a.path.localeCompare(b.path))), 'changed 3 files: old.txt +0 -2, pic.bin (binary, added), src/a.ts +4 -1');
  });
});
