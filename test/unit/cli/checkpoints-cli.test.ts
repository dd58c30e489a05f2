import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from './run-cli';

const CRLF = Buffer.from('alpha\r\nbeta\r\n');

describe('snowpea CLI checkpoints (issue 19: checkpoints, CLI)', function () {
  this.timeout(60000);
  const world = cliWorld('sp-cli-ckpt');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  const model = () => ['--base-url', server.baseUrl, '--model', 'gpt-4o'];
  beforeEach(() => {
    ({ server, ws, home } = world);
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'one\ntwo\n');
    fs.writeFileSync(path.join(ws, 'gone.txt'), 'still here\n');
    fs.writeFileSync(path.join(ws, 'win.txt'), CRLF);
  });

  /** A turn that edits notes.txt, removes gone.txt with a shell rm and creates fresh.txt. */
  async function changingRun(extra: string[] = []) {
    server.enqueue(
      {
        toolCalls: [
          { id: 'c1', name: 'write_file', arguments: JSON.stringify({ path: 'notes.txt', content: 'one\n2\n3\n' }) },
          { id: 'c2', name: 'shell', arguments: JSON.stringify({ command: 'rm gone.txt && printf "new\\n" > fresh.txt && printf "x\\n" > win.txt' }) },
        ],
      },
      { text: 'Edited the notes.' },
    );
    return cli(['run', 'tidy the notes\nplease', ...model(), '--yes', ...extra], { cwd: ws, home });
  }

  async function sessionId(): Promise<string> {
    return (JSON.parse((await cli(['sessions', 'list', '--json'], { cwd: ws, home })).stdout) as Array<{ id: string }>)[0].id;
  }

  it('issue 19 CLI: run ends the turn with a diff stat of the files it changed on stderr, stdout keeps the answer', async () => {
    const run = await changingRun();
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'Edited the notes.');
    const line = run.stderr.split('\n').find((l) => l.startsWith('changed '));
    assert.equal(line, 'changed 4 files: fresh.txt +1 -0, gone.txt +0 -1, notes.txt +2 -1, win.txt +1 -2');
  });

  it('issue 19 CLI: run --json puts the changed files in the turn.end line, still the last', async () => {
    const run = await changingRun(['--json']);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; files?: unknown });
    const last = lines.at(-1)!;
    assert.equal(last.type, 'turn.end', run.stdout);
    assert.equal(lines.filter((l) => l.type === 'turn.end').length, 1);
    assert.deepEqual(last.files, [
      { path: 'fresh.txt', status: 'added', added: 1, removed: 0 },
      { path: 'gone.txt', status: 'deleted', added: 0, removed: 1 },
      { path: 'notes.txt', status: 'modified', added: 2, removed: 1 },
      { path: 'win.txt', status: 'modified', added: 1, removed: 2 },
    ]);
    assert.doesNotMatch(run.stderr, /changed 4 files/);
  });

  it('issue 19 CLI: sessions checkpoints lists each turn with its time, message line and the files changed since', async () => {
    assert.equal((await changingRun()).code, 0);
    server.enqueue({ text: 'Nothing to do.' });
    const id = await sessionId();
    assert.equal((await cli(['run', 'and now?', ...model(), '--session', id], { cwd: ws, home })).code, 0);

    const list = await cli(['sessions', 'checkpoints', id], { cwd: ws, home });
    assert.equal(list.code, 0, list.stderr);
    const rows = list.stdout.trim().split('\n').slice(1);
    assert.equal(rows.length, 2, list.stdout);
    assert.match(rows[0], /^ {3}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}4 files changed since\s+tidy the notes$/);
    assert.match(rows[1], /^ {3}2 {2}.* {2}0 files changed since\s+and now\?$/);
    const json = JSON.parse((await cli(['sessions', 'checkpoints', id, '--json'], { cwd: ws, home })).stdout) as Array<{ turn: number; changedSince: Array<{ path: string; status: string }> }>;
    assert.deepEqual(json[0].changedSince.map((c) => `${c.status} ${c.path}`), ['added fresh.txt', 'deleted gone.txt', 'modified notes.txt', 'modified win.txt']);
  });

  it('issue 19 CLI: sessions restore without a terminal or --yes refuses and changes nothing; with --yes it restores byte for byte', async () => {
    assert.equal((await changingRun()).code, 0);
    const id = await sessionId();
    const refused = await cli(['sessions', 'restore', id, '--to', '1'], { cwd: ws, home });
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /changes 4 files:\n {2}fresh\.txt {2}\(added since, removed\)\n {2}gone\.txt {2}\(deleted since, recreated\)/);
    assert.match(refused.stderr, /not restored: there is no terminal to ask for confirmation; add --yes to restore these files/);
    assert.ok(!fs.existsSync(path.join(ws, 'gone.txt')), 'nothing restored');

    const done = await cli(['sessions', 'restore', id, '--to', '1', '--yes'], { cwd: ws, home });
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /restored 4 files\n$/);
    assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'one\ntwo\n');
    assert.equal(fs.readFileSync(path.join(ws, 'gone.txt'), 'utf8'), 'still here\n');
    assert.ok(fs.readFileSync(path.join(ws, 'win.txt')).equals(CRLF));
    assert.ok(!fs.existsSync(path.join(ws, 'fresh.txt')));

    const again = await cli(['sessions', 'restore', id, '--to', '1'], { cwd: ws, home });
    assert.equal(again.code, 0);
    assert.match(again.stdout, /^nothing to restore: the files in .* are as they were before turn 1 \("tidy the notes"\)/);
    const bad = await cli(['sessions', 'restore', id, '--to', '7', '--yes'], { cwd: ws, home });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, new RegExp(`session ${id} has no checkpoint before turn 7 \\(see: snowpea sessions checkpoints ${id}\\)`));
  });

  it('issue 19 CLI: a session resumed from another folder keeps its checkpoints in its own workspace', async () => {
    server.enqueue({ text: 'Hello.' });
    assert.equal((await cli(['run', 'hello', ...model()], { cwd: ws, home })).code, 0);
    const id = await sessionId();
    const elsewhere = fs.mkdtempSync(path.join(path.dirname(ws), 'sp-cli-ckpt-elsewhere-'));
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'write_file', arguments: JSON.stringify({ path: 'notes.txt', content: 'rewritten\n' }) }] }, { text: 'Done.' });
    const run = await cli(['run', 'rewrite the notes', ...model(), '--session', id, '--yes'], { cwd: elsewhere, home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^changed 1 file: notes\.txt \+1 -2$/m);
    const json = JSON.parse((await cli(['sessions', 'checkpoints', id, '--json'], { cwd: elsewhere, home })).stdout) as Array<{ turn: number; message: string }>;
    assert.deepEqual(json.map((c) => [c.turn, c.message]), [[1, 'hello'], [2, 'rewrite the notes']]);
    assert.deepEqual(fs.readdirSync(elsewhere), [], 'nothing happened in the folder the CLI ran in');
  });

  it('issue 19 CLI: sessions delete removes the session\'s checkpoints', async () => {
    assert.equal((await changingRun()).code, 0);
    const id = await sessionId();
    const shadows = path.join(home, 'checkpoints');
    const refs = () => fs.readdirSync(shadows).map((d) => execFileSync('git', ['--git-dir', path.join(shadows, d), 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8' }).trim()).join('\n');
    assert.equal(refs(), `refs/snowpea/${id}/1`);
    assert.equal((await cli(['sessions', 'delete', id], { cwd: ws, home })).code, 0);
    assert.equal(refs(), '');
  });
});
