import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openStateDb } from '../../../extension/core/store';
import { makePng } from '../../fixtures/images/make';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from './run-cli';

describe('snowpea CLI', function () {
  this.timeout(60000);
  const world = cliWorld('sp-cli');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  beforeEach(() => {
    ({ server, ws, home } = world);
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'the answer is 42\n');
  });

  it('--help and --version', async () => {
    const help = await cli(['--help'], { cwd: ws, home });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /snowpea run "prompt"/);
    const v = await cli(['--version'], { cwd: ws, home });
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^snowpea \S+/);
  });

  it('run completes a two-round tool-using turn, and sessions export shows every byte', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"notes.txt"}' }, { id: 'c2', name: 'shell', arguments: '{"command":"echo from-shell"}' }] },
      { text: 'The answer is 42.' },
    );
    const run = await cli(['run', 'what is the answer?', '--base-url', server.baseUrl, '--model', 'gpt-4o', '--yes'], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /The answer is 42\./);
    // Each call is named by its title, as the chat's card names it, with the result's first line.
    assert.match(run.stderr, /^ {2}✓ read notes\.txt — 1 the answer is 42$/m);
    assert.match(run.stderr, /^ {2}✓ run: echo from-shell — .*from-shell/m);
    assert.equal(server.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 2);
    assert.equal(server.requests[0].headers.authorization, 'Bearer sk-cli-secret');

    const list = await cli(['sessions', 'list', '--json'], { cwd: ws, home });
    const rows = JSON.parse(list.stdout);
    assert.equal(rows.length, 1);
    assert.deepEqual(Object.keys(rows[0]).sort(), ['created', 'id', 'rounds', 'title', 'updated', 'workspace']);
    assert.equal(rows[0].workspace, ws);
    assert.equal(rows[0].rounds, 2);

    const exp = await cli(['sessions', 'export', rows[0].id, '--format', 'json'], { cwd: ws, home });
    assert.equal(exp.code, 0, exp.stderr);
    assert.match(exp.stdout, /the answer is 42/);
    assert.match(exp.stdout, /from-shell/);
    assert.doesNotMatch(exp.stdout, /sk-cli-secret/);
    const md = await cli(['sessions', 'export', rows[0].id, '--format', 'md'], { cwd: ws, home });
    assert.match(md.stdout, /read_file/);
  });

  it('sessions delete removes a session and the images only it held; an unknown id is an error', async () => {
    fs.writeFileSync(path.join(ws, 'pic.png'), makePng({ width: 8, height: 8 }));
    server.enqueue({ text: 'A small square.' });
    const run = await cli(['run', 'what is this?', '--attach', 'pic.png', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    const rows = JSON.parse((await cli(['sessions', 'list', '--json'], { cwd: ws, home })).stdout) as Array<{ id: string; title: string }>;
    const id = rows.find((r) => r.title.startsWith('what is this?'))!.id;
    const attachments = path.join(home, 'scratch', 'attachments');
    const images = () => fs.readdirSync(attachments).filter((f) => f.endsWith('.png'));
    assert.equal(images().length, 1, 'the attached picture is in the store');

    const del = await cli(['sessions', 'delete', id], { cwd: ws, home });
    assert.equal(del.code, 0, del.stderr);
    assert.equal(del.stdout, `deleted session ${id}\n`);
    const after = JSON.parse((await cli(['sessions', 'list', '--json'], { cwd: ws, home })).stdout) as Array<{ id: string }>;
    assert.ok(!after.some((r) => r.id === id));
    assert.deepEqual(images(), [], 'its image went with it');

    const again = await cli(['sessions', 'delete', id], { cwd: ws, home });
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`no session ${id}`));
  });

  it('tools list --json: the 13 eager core tools, the deferred groups; tools call refuses the metadata address', async () => {
    const list = await cli(['tools', 'list', '--json'], { cwd: ws, home });
    assert.equal(list.code, 0, list.stderr);
    const rows = JSON.parse(list.stdout) as Array<{ name: string; group: string; permission: string; summary: string; deferred: boolean }>;
    const eager = rows.filter((r) => !r.deferred).map((r) => r.name).sort();
    assert.deepEqual(eager, ['ask_user', 'delegate_task', 'edit_file', 'execute_code', 'glob', 'grep', 'read_file', 'set_mode', 'shell', 'skill_view', 'tool_search', 'view_image', 'write_file']);
    assert.deepEqual(rows.filter((r) => r.group === 'git').map((r) => [r.name, r.deferred]), [['git_commit', true], ['git_diff', true], ['git_log', true], ['git_status', true]]);
    assert.deepEqual(Object.keys(rows[0]).sort(), ['deferred', 'group', 'name', 'permission', 'summary']);
    const call = await cli(['tools', 'call', 'browser_navigate', '--args', '{"url": "http://169.254.169.254/"}', '--json'], { cwd: ws, home });
    assert.equal(call.code, 1);
    assert.equal(JSON.parse(call.stdout).error.code, 'policy_blocked');
  });

  it('--json prints the events as JSON lines', async () => {
    server.enqueue({ text: 'hi' });
    const run = await cli(['run', 'x', '--base-url', server.baseUrl, '--json'], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    const types = run.stdout.trim().split('\n').map((l) => JSON.parse(l).type);
    assert.equal(types[0], 'turn.start');
    assert.equal(types.at(-1), 'turn.end');
    assert.ok(types.includes('text.delta'));
  });

  it('exits 1 with a clear message on a provider error, and on an unknown session', async () => {
    server.enqueue({ fault: { status: 401, message: 'bad key' } });
    const run = await cli(['run', 'x', '--base-url', server.baseUrl], { cwd: ws, home });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /401|auth/i);
    assert.doesNotMatch(run.stderr, /sk-cli-secret/);
    const missing = await cli(['run', 'x', '--session', 'nope', '--base-url', server.baseUrl], { cwd: ws, home });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no session nope/);
  });

  it('SIGKILL during a turn loses no completed round', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'k1', name: 'shell', arguments: '{"command":"echo round-one-done"}' }] },
      { toolCalls: [{ id: 'k2', name: 'shell', arguments: '{"command":"echo started-round-two; sleep 60"}' }] },
    );
    const run = await cli(['run', 'go', '--base-url', server.baseUrl, '--yes', '--json'], {
      cwd: ws,
      home,
      onStdout: (out, kill) => {
        if (out.includes('started-round-two')) kill();
      },
    });
    assert.equal(run.signal, 'SIGKILL');
    const db = await openStateDb({ file: path.join(home, 'state.db'), idleMs: 0 });
    try {
      const [s] = db.listSessions();
      const msgs = db.getMessages(s.id);
      const roles = msgs.map((m) => m.role);
      assert.deepEqual(roles.slice(0, 3), ['user', 'assistant', 'tool'], 'round one is complete');
      assert.match((msgs[2] as any).content, /round-one-done/);
    } finally {
      await db.close();
    }
  });
});
