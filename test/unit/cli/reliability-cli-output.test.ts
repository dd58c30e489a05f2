import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openStateDb } from '../../../extension/core/store';
import { startScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from './run-cli';
import { cliToFile, pipeIntoSlowReader, startCli } from './cli-process';

const MB = 1 << 20;

describe('CLI output reaches slow pipes whole; each error once (reliability P2, P14, P18)', function () {
  this.timeout(90000);
  const world = cliWorld('sp-rel-out');

  it('P2: a 3 MB sessions export piped into a reader that waits arrives whole, as valid JSON', async () => {
    const { ws, home } = world;
    const db = path.join(home, 'big.db');
    const answer = 'big answer line ✓\n'.repeat((3 * MB) / 18);
    const store = await openStateDb({ file: db });
    store.createSession({ id: 'big-session', title: 'big', workspaceRoot: ws, mode: 'code', role: 'default' });
    store.appendMessage('big-session', { turn: 1, round: 0, message: { role: 'user', content: 'write a lot' } });
    store.appendMessage('big-session', { turn: 1, round: 1, message: { role: 'assistant', content: answer } });
    await store.commitRound();
    await store.close();

    const args = ['sessions', 'export', 'big-session', '--format', 'json', '--state-db', db];
    const reference = await cliToFile(args, { cwd: ws, home });
    assert.equal(reference.code, 0);
    assert.ok(Buffer.byteLength(reference.out) > 3 * MB);
    const piped = await pipeIntoSlowReader(args, { cwd: ws, home });
    assert.equal(piped.code, 0);
    assert.equal(Buffer.byteLength(piped.out), Buffer.byteLength(reference.out), 'every byte reached the reader');
    assert.match(JSON.stringify(JSON.parse(piped.out)), /big answer line/);
  });

  it('P2: run --json piped into a reader that waits keeps every event, turn.end last', async () => {
    const { ws, home } = world;
    const server = await startScriptedServer({ textChunkChars: 64 * 1024 });
    try {
      const text = 'streamed words '.repeat(MB / 15);
      server.enqueue({ text });
      const piped = await pipeIntoSlowReader(['run', 'talk a lot', '--json', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
      assert.equal(piped.code, 0);
      const events = piped.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string });
      assert.equal(events.at(-1)!.type, 'turn.end');
      assert.equal(events.filter((e) => e.type === 'text.delta').map((e) => e.text).join(''), text);
    } finally {
      await server.close();
    }
  });

  it('P2: tools call --json piped into a reader that waits gets the whole result', async () => {
    const { ws, home } = world;
    fs.writeFileSync(path.join(ws, 'lines.txt'), Array.from({ length: 4000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n'));
    const args = ['tools', 'call', 'read_file', '--args', '{"path":"lines.txt"}', '--yes', '--json'];
    const reference = await cliToFile(args, { cwd: ws, home });
    assert.equal(reference.code, 0);
    assert.ok(Buffer.byteLength(reference.out) > 100 * 1024, `a result well over 64 KiB (${reference.out.length})`);
    const piped = await pipeIntoSlowReader(args, { cwd: ws, home });
    assert.equal(piped.code, 0);
    assert.equal(piped.out, reference.out);
    assert.equal((JSON.parse(piped.out) as { ok: boolean }).ok, true);
  });

  it('P14: a persistent 500 prints its error once on stderr', async () => {
    const { ws, home, server } = world;
    for (let i = 0; i < 2; i++) server.enqueue({ fault: { status: 500, message: 'upstream exploded badly' } });
    fs.writeFileSync(path.join(home, 'retries.json'), JSON.stringify({ model: { maxRetries: 1 } }));
    const run = await cli(['run', 'hi', '--settings', path.join(home, 'retries.json'), '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(run.code, 1);
    assert.equal(server.requests.length, 2, 'the request was retried once');
    // Retry notes ("  retrying (...) in 500 ms") say what is happening; the error itself is one line.
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('snowpea') && l.includes('upstream exploded badly'));
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0], /^snowpea: .*gave up after 1 retry/);
    const verbose = await cli(['run', 'hi', '--verbose', '--settings', path.join(home, 'retries.json'), '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.match(verbose.stderr, /snowpea debug: model request failed/, 'with --verbose the client line is still there');
  });

  it('P14: a damaged journal is reported once', async () => {
    const { ws, home } = world;
    const db = path.join(home, 'notice.db');
    const store = await openStateDb({ file: db });
    store.createSession({ id: 's1', title: 'kept', workspaceRoot: ws, mode: 'code', role: 'default' });
    await store.close();
    fs.writeFileSync(`${db}.journal`, '{"this is": not a journal line\n{"q":1}\n');
    const list = await cli(['sessions', 'list', '--state-db', db], { cwd: ws, home });
    assert.equal(list.code, 0, list.stderr);
    const mentions = list.stderr.split('\n').filter((l) => /journal/.test(l));
    assert.equal(mentions.length, 1, list.stderr);
  });

  it('P18: tools call --args @file carries a 1 MB write_file, --args - reads stdin', async () => {
    const { ws, home } = world;
    const content = 'y'.repeat(MB);
    fs.writeFileSync(path.join(ws, 'args.json'), JSON.stringify({ path: 'big.txt', content }));
    const fromFile = await cli(['tools', 'call', 'write_file', '--args', '@args.json', '--yes', '--json'], { cwd: ws, home });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(fs.readFileSync(path.join(ws, 'big.txt'), 'utf8'), content);

    const { exited } = startCli(['tools', 'call', 'write_file', '--args', '-', '--yes', '--json'], { cwd: ws, home, stdin: JSON.stringify({ path: 'from-stdin.txt', content: 'via stdin\n' }) });
    const fromStdin = await exited;
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.equal(fs.readFileSync(path.join(ws, 'from-stdin.txt'), 'utf8'), 'via stdin\n');

    const missing = await cli(['tools', 'call', 'write_file', '--args', '@nope.json', '--yes'], { cwd: ws, home });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /could not read the --args file nope\.json: no such file/);
  });
});
