import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openStateDb } from '../../../extension/core/store';
import { cli, cliWorld } from './run-cli';

/** Two stored sessions in `ws` whose ids share the start `abcd`, and one in another folder. */
async function storeSessions(home: string, ws: string, elsewhere: string): Promise<void> {
  const store = await openStateDb({ file: path.join(home, 'state.db') });
  const make = (id: string, title: string, root: string, rounds: number) => {
    store.createSession({ id, title, workspaceRoot: root, mode: 'code', role: 'default' });
    store.appendMessage(id, { turn: 1, round: 0, message: { role: 'user', content: title } });
    for (let r = 1; r <= rounds; r++) store.appendMessage(id, { turn: 1, round: r, message: { role: 'assistant', content: `answer ${r} of ${title}` } });
  };
  make('abcd1111-0000-4000-8000-000000000001', 'one round here', ws, 1);
  make('abcd2222-0000-4000-8000-000000000002', 'two rounds here', ws, 2);
  make('ffff3333-0000-4000-8000-000000000003', 'somewhere else', elsewhere, 3);
  await store.commitRound();
  await store.close();
}

describe('the CLI\'s rough edges from the first-use report (issue 29)', function () {
  this.timeout(90000);
  const world = cliWorld('sp-first-screen');

  it('an unknown command or option: one error line in our words and one hint, no help text; exit 1', async () => {
    const { ws, home } = world;
    const cmd = await cli(['frob'], { cwd: ws, home });
    assert.equal(cmd.code, 1);
    assert.equal(cmd.stdout, '');
    assert.deepEqual(cmd.stderr.trimEnd().split('\n'), ['snowpea: unknown command frob (the commands: run, sessions, tools, mcp)', 'see: snowpea --help']);
    const opt = await cli(['run', 'hi', '--frob'], { cwd: ws, home });
    assert.equal(opt.code, 1);
    assert.deepEqual(opt.stderr.trimEnd().split('\n'), ['snowpea: unknown option --frob for run', 'see: snowpea --help']);
    const value = await cli(['sessions', 'show', '--format'], { cwd: ws, home });
    assert.equal(value.code, 1);
    assert.deepEqual(value.stderr.trimEnd().split('\n'), ['snowpea: --format needs a value for sessions', 'see: snowpea --help']);
  });

  it('--attach with a missing, special or linked-out file refuses before any request, naming it; exit 1', async () => {
    const { ws, home, server } = world;
    server.enqueue({ text: 'should never be asked' });
    const base = ['--base-url', server.baseUrl, '--model', 'gpt-4o'];
    const missing = await cli(['run', 'look at this', '--attach', 'nope.png', ...base], { cwd: ws, home });
    assert.equal(missing.code, 1);
    assert.deepEqual(missing.stderr.trimEnd().split('\n'), ['snowpea: --attach nope.png: no such file; nothing was sent']);

    // A FIFO would block a reader that opened it: refused as a special file, not read.
    execFileSync('mkfifo', [path.join(ws, 'pipe.txt')]);
    const fifo = await cli(['run', 'look at this', '--attach', 'pipe.txt', ...base], { cwd: ws, home });
    assert.equal(fifo.code, 1);
    assert.match(fifo.stderr, /^snowpea: --attach not a regular file: pipe\.txt is .*; nothing was sent$/m);

    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-first-screen-out-'));
    fs.writeFileSync(path.join(outside, 'private.txt'), 'not for the model\n');
    fs.symlinkSync(path.join(outside, 'private.txt'), path.join(ws, 'SETUP.md'));
    const linked = await cli(['run', 'follow the setup', '--attach', 'SETUP.md', ...base], { cwd: ws, home });
    assert.equal(linked.code, 1);
    assert.match(linked.stderr, /^snowpea: --attach SETUP\.md: it links to .*private\.txt, outside the workspace; not followed .*; nothing was sent$/m);

    fs.mkdirSync(path.join(ws, 'src'));
    const folder = await cli(['run', 'read it all', '--attach', 'src', ...base], { cwd: ws, home });
    assert.equal(folder.code, 1);
    assert.match(folder.stderr, /--attach src is a folder/);

    assert.equal(server.chatRequests().length, 0, 'nothing was sent');
    const list = await cli(['sessions', 'list', '--json', '--all'], { cwd: ws, home });
    assert.deepEqual(JSON.parse(list.stdout), [], 'no session was made');
  });

  it('errors have one prefix, "snowpea: " (no "snowpea error:")', async () => {
    const { ws, home } = world;
    const bad = await cli(['sessions', 'frob', 'x'], { cwd: ws, home });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^snowpea: unknown sessions command frob/m);
    const none = await cli(['sessions', 'show', 'nope-nope'], { cwd: ws, home });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^snowpea: no session nope-nope in /m);
    assert.doesNotMatch(bad.stderr + none.stderr, /snowpea error/);
  });

  it('sessions list: the current folder\'s sessions with their workspace and "1 round" / "2 rounds"; --all adds other folders; --json has the workspace', async () => {
    const { ws, home } = world;
    const elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-first-screen-else-')));
    await storeSessions(home, ws, elsewhere);
    const here = await cli(['sessions', 'list'], { cwd: ws, home });
    assert.equal(here.code, 0, here.stderr);
    const lines = here.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2, here.stdout);
    const byId = (id: string) => lines.find((l) => l.startsWith(id)) ?? '';
    assert.match(byId('abcd1111'), / 1 round {2}.*one round here$/);
    assert.match(byId('abcd2222'), / 2 rounds {2}.*two rounds here$/);
    for (const l of lines) assert.ok(l.includes(ws), `the workspace column: ${l}`);

    const all = await cli(['sessions', 'list', '--all'], { cwd: ws, home });
    assert.equal(all.stdout.trimEnd().split('\n').length, 3, all.stdout);
    assert.match(all.stdout, /^ffff3333.* 3 rounds {2}.*somewhere else$/m);
    assert.ok(all.stdout.split('\n').find((l) => l.startsWith('ffff3333'))!.includes(elsewhere));

    const json = JSON.parse((await cli(['sessions', 'list', '--json', '--all'], { cwd: ws, home })).stdout) as Array<{ id: string; workspace: string }>;
    assert.deepEqual(Object.fromEntries(json.map((r) => [r.id.slice(0, 8), r.workspace])), { abcd1111: ws, abcd2222: ws, ffff3333: elsewhere });

    const empty = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-first-screen-empty-')));
    const none = await cli(['sessions', 'list'], { cwd: empty, home });
    assert.equal(none.stdout, `no sessions yet in ${empty} (3 sessions in other folders: snowpea sessions list --all)\n`);
  });

  it('a session id may be shortened to a start that names one session; an ambiguous start lists the matches', async () => {
    const { ws, home, server } = world;
    await storeSessions(home, ws, ws);
    const show = await cli(['sessions', 'show', 'abcd2'], { cwd: ws, home });
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /answer 2 of two rounds here/);
    const exported = await cli(['sessions', 'export', 'ffff', '--format', 'json'], { cwd: ws, home });
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /somewhere else/);

    const ambiguous = await cli(['sessions', 'show', 'abcd'], { cwd: ws, home });
    assert.equal(ambiguous.code, 1);
    assert.match(ambiguous.stderr, /^snowpea: abcd is the start of 2 session ids; give more of it:$/m);
    assert.match(ambiguous.stderr, /^ {2}abcd1111-0000-4000-8000-000000000001 {2}one round here$/m);
    assert.match(ambiguous.stderr, /^ {2}abcd2222-0000-4000-8000-000000000002 {2}two rounds here$/m);
    const short = await cli(['sessions', 'show', 'ffe'], { cwd: ws, home });
    assert.equal(short.code, 1);
    assert.match(short.stderr, /no session ffe in .*at least 4 characters/);

    server.enqueue({ text: 'continuing' });
    const resumed = await cli(['run', 'go on', '--session', 'abcd1', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /^session abcd1111-0000-4000-8000-000000000001$/m);
    assert.match(JSON.stringify(server.chatRequests()[0].body.messages), /answer 1 of one round here/);

    const deleted = await cli(['sessions', 'delete', 'ffff3'], { cwd: ws, home });
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, 'deleted session ffff3333-0000-4000-8000-000000000003\n');
  });

  it('run --json: the meter\'s dollar amounts are rounded to 6 decimals', async () => {
    const { ws, home, server } = world;
    server.enqueue({ text: 'Cheap.', usage: { prompt_tokens: 3333, completion_tokens: 7, cached_tokens: 1111 } });
    const run = await cli(['run', 'price this', '--json', '--base-url', server.baseUrl, '--model', 'gpt-4.1-mini'], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    const meter = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; cost?: Record<string, number> }).find((e) => e.type === 'meter');
    assert.ok(meter?.cost, run.stdout);
    const printed = /"cost":\{[^}]*\}/.exec(run.stdout)![0];
    for (const [k, v] of Object.entries(meter.cost)) assert.match(String(v), /^\d+(\.\d{1,6})?$/, `${k} in ${printed}`);
    assert.ok(meter.cost.round > 0);
  });
});
