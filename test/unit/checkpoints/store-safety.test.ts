import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../../extension/core/checkpoints';
import { checkpointWorld, exists, newStore, read, signal, write } from './world';
import { waitUntil } from '../../fixtures/eventually';

const SID = 'a1b2c3d4-0000-4000-8000-000000000001';

/** A script that leaves a marker file when anything runs it. */
function markerScript(dir: string): { script: string; marker: string } {
  const marker = path.join(dir, 'MARKER');
  const script = path.join(dir, 'evil.sh');
  fs.writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`, { mode: 0o755 });
  return { script, marker };
}

function hostileConfig(script: string, hooks: string): string {
  return `[core]\n\tfsmonitor = ${script}\n\thooksPath = ${hooks}\n\tpager = ${script}\n[diff]\n\texternal = ${script}\n[diff "evil"]\n\ttextconv = ${script}\n[filter "evil"]\n\tclean = ${script}\n\tsmudge = ${script}\n\trequired = true\n`;
}

describe('checkpoint store safety and limits (issue 19: checkpoints)', function () {
  this.timeout(30000);
  const w = checkpointWorld('sp-ckpt-safe');
  let outside: string;
  beforeEach(() => (outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ckpt-outside-')))));
  afterEach(() => fs.rmSync(outside, { recursive: true, force: true }));

  it('issue 19 checkpoints: a workspace whose .git/config sets fsmonitor, hooks, filters and diff programs never runs them', async () => {
    const { script, marker } = markerScript(outside);
    const hooks = path.join(outside, 'hooks');
    fs.mkdirSync(hooks);
    for (const h of ['pre-commit', 'post-commit', 'post-checkout', 'reference-transaction', 'post-index-change']) fs.copyFileSync(script, path.join(hooks, h));
    fs.appendFileSync(path.join(w.ws, '.git', 'config'), hostileConfig(script, hooks));
    write(w.ws, '.gitattributes', '* filter=evil diff=evil\n');
    write(w.ws, 'a.txt', 'one\n');
    // A nested repository with the same config.
    write(w.ws, 'vendor/lib/x.txt', 'x\n');
    execFileSync('git', ['init', '-q'], { cwd: path.join(w.ws, 'vendor/lib') });
    fs.appendFileSync(path.join(w.ws, 'vendor/lib/.git/config'), hostileConfig(script, hooks));

    assert.equal((await w.store.snapshot(SID, 1, signal())).ok, true);
    write(w.ws, 'a.txt', 'two\n');
    await w.store.diffStat(SID, 1, signal());
    await w.store.restore(SID, 1, signal());
    await w.store.list(SID);
    await w.store.forget(SID);
    assert.equal(read(w.ws, 'a.txt').toString(), 'one\n');
    assert.ok(!fs.existsSync(marker), `a program from the workspace ran: ${fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''}`);
  });

  it('issue 19 checkpoints: restore never writes through a symlink that leads out of the workspace', async () => {
    write(w.ws, 'conf/settings.json', '{"a":1}\n');
    await w.store.snapshot(SID, 1, signal());
    fs.rmSync(path.join(w.ws, 'conf'), { recursive: true });
    fs.symlinkSync(outside, path.join(w.ws, 'conf'));
    await w.store.restore(SID, 1, signal());
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written outside');
    assert.ok(fs.lstatSync(path.join(w.ws, 'conf')).isDirectory(), 'the folder is a folder again');
    assert.equal(read(w.ws, 'conf/settings.json').toString(), '{"a":1}\n');
  });

  it('issue 19 checkpoints: Snowpea\'s own folders inside the workspace (state.db\'s, the shadow repositories) are never recorded or restored', async () => {
    const stateDir = path.join(w.ws, 'home [1]', '.snowpea');
    const store = new CheckpointStore({ workspaceRoot: w.ws, dir: path.join(stateDir, 'checkpoints'), settings: () => ({ 'checkpoints.enabled': true, 'checkpoints.maxWorkspaceMB': 200 }), logger: w.log, keepOut: [stateDir] });
    write(w.ws, 'home [1]/.snowpea/state.db', 'sessions v1');
    write(w.ws, 'home [1]/project.txt', 'v1');
    assert.equal((await store.snapshot(SID, 1, signal())).ok, true);
    write(w.ws, 'home [1]/.snowpea/state.db', 'sessions v2');
    write(w.ws, 'home [1]/project.txt', 'v2');
    assert.deepEqual(await store.restore(SID, 1, signal()), [{ path: 'home [1]/project.txt', status: 'modified' }]);
    assert.equal(read(w.ws, 'home [1]/.snowpea/state.db').toString(), 'sessions v2');
    const tree = execFileSync('git', ['--git-dir', store.repo.gitDir, 'ls-tree', '-r', '--name-only', `refs/snowpea/${SID}/1`], { encoding: 'utf8' });
    assert.equal(tree, 'home [1]/project.txt\n');
  });

  it('issue 19 checkpoints: a workspace over checkpoints.maxWorkspaceMB gets no checkpoint and one clear message', async () => {
    w.limitMB = 1;
    write(w.ws, 'big.bin', Buffer.alloc(2.5 * 1024 * 1024, 7));
    const r = await w.store.snapshot(SID, 1, signal());
    assert.deepEqual(r, { ok: false, reason: 'too-large', message: 'checkpoints are off for this workspace: at least 3 MB of files, over the 1 MB limit (checkpoints.maxWorkspaceMB; files .gitignore excludes do not count)' });
    await w.store.atTurnStart(SID, 1, signal());
    await w.store.atTurnStart(SID, 2, signal());
    assert.deepEqual(w.notices, [r.message]);
    assert.equal(w.log.lines.filter((l) => l.startsWith('warn:')).length, 1, w.log.lines.join('\n'));
    assert.deepEqual(await w.store.list(SID), []);
    const objects = execFileSync('git', ['--git-dir', w.store.repo.gitDir, 'count-objects'], { encoding: 'utf8' });
    assert.match(objects, /^0 objects/, 'nothing was copied');

    write(w.ws, '.gitignore', 'big.bin\n');
    assert.equal((await w.store.snapshot(SID, 3, signal())).ok, true, 'ignored files do not count');
  });

  it('issue 19 checkpoints: a workspace that is not a folder, or no git on PATH, is said once and the turn goes on', async () => {
    const file = path.join(outside, 'plain-file');
    fs.writeFileSync(file, 'x');
    const notFolder = newStore(w, file);
    await notFolder.atTurnStart(SID, 1, signal());
    assert.match(w.notices[0], /checkpoints are off for this workspace: .*plain-file is not a folder/);

    const oldPath = process.env.PATH;
    process.env.PATH = path.join(outside, 'no-bin');
    try {
      await w.store.atTurnStart(SID, 1, signal());
      await w.store.atTurnStart(SID, 2, signal());
    } finally {
      process.env.PATH = oldPath;
    }
    assert.deepEqual(w.notices.slice(1), ['checkpoints are off: git was not found on PATH']);
  });

  it('issue 19 checkpoints: checkpoints.enabled false keeps none, and an abort kills the git it runs', async () => {
    w.enabled = false;
    await w.store.atTurnStart(SID, 1, signal());
    assert.ok(!fs.existsSync(w.store.repo.gitDir), 'no shadow repository made');
    assert.deepEqual(w.notices, []);

    w.enabled = true;
    const bin = path.join(outside, 'bin');
    const pidFile = path.join(outside, 'git.pid');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 30\n`, { mode: 0o755 });
    const oldPath = process.env.PATH;
    process.env.PATH = `${bin}:${oldPath}`;
    const ac = new AbortController();
    try {
      const pending = w.store.snapshot(SID, 1, ac.signal);
      await waitUntil(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 'the fake git to start');
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      ac.abort();
      assert.equal((await pending).ok, false);
      assert.equal(((await pending) as { reason: string }).reason, 'cancelled');
      await waitUntil(() => !isAlive(pid), 'the cancelled git to be gone');
    } finally {
      process.env.PATH = oldPath;
    }
    assert.ok(!exists(w.ws, 'MARKER'));
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
