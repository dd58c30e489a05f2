import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openStateDb } from '../../../extension/core/store';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';
import { cliWorld } from './run-cli';
import { cliBundle, cliEnv, startCli, waitFor } from './cli-process';

interface ReadThenClose {
  /** What the reader got before it closed its end of the pipe. */
  out: string;
  stderr: string;
  code: number | null;
  /** From the reader closing stdout to the CLI's exit; undefined when the reader never closed. */
  afterCloseMs: number | undefined;
}

/**
 * Runs the built CLI with stdout a real pipe whose reader stops once `enough` holds and closes its
 * end, as `| head -c 50` does: the CLI's next write to stdout fails with EPIPE.
 */
function readThenClose(args: string[], opts: { cwd: string; home: string }, enough: (out: string) => boolean): Promise<ReadThenClose> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliBundle, ...args], { cwd: opts.cwd, env: cliEnv(opts.home), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    let closedAt: number | undefined;
    let exitedAt = 0;
    child.stdout.on('data', (d: Buffer) => {
      if (closedAt !== undefined) return;
      out += d.toString('utf8');
      if (!enough(out)) return;
      closedAt = performance.now();
      child.stdout.destroy();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('exit', () => (exitedAt = performance.now()));
    child.on('close', (code) => resolve({ out, stderr, code, afterCloseMs: closedAt === undefined ? undefined : exitedAt - closedAt }));
  });
}

/** Runs `node dist/cli.js ARGS | head -N` in bash; the CLI's exit status and its stderr. */
function intoHead(args: string[], lines: number, opts: { cwd: string; home: string }): Promise<{ code: number; out: string; stderr: string }> {
  return new Promise((resolve) => {
    const script = `node "$CLI" "$@" 2>"$ERR" | head -${lines}; exit "\${PIPESTATUS[0]}"`;
    const err = path.join(opts.cwd, `.stderr-${process.pid}-${Date.now()}`);
    const child = spawn('bash', ['-c', script, 'bash', ...args], { cwd: opts.cwd, env: { ...cliEnv(opts.home), CLI: cliBundle, ERR: err }, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('close', (code) => {
      const stderr = fs.readFileSync(err, 'utf8');
      fs.rmSync(err, { force: true });
      resolve({ code: code ?? -1, out, stderr });
    });
  });
}

/** The stored transcript of a session, read from the CLI's state.db. */
async function storedMessages(home: string, id: string): Promise<Array<{ role: string; toolCalls?: Array<{ name: string }> }>> {
  const store = await openStateDb({ file: path.join(home, 'state.db'), readOnly: true });
  try {
    return store.getMessages(id) as Array<{ role: string; toolCalls?: Array<{ name: string }> }>;
  } finally {
    await store.close();
  }
}

/** A round that writes first.txt, then a long, slow answer that ends in a call writing second.txt, then a last answer. */
function scriptSlowSecondRound(server: ScriptedServer): void {
  server.enqueue(
    { toolCalls: [{ id: 'c1', name: 'write_file', arguments: JSON.stringify({ path: 'first.txt', content: 'first\n' }) }] },
    { text: 'streaming slowly to a reader. '.repeat(80), toolCalls: [{ id: 'c2', name: 'write_file', arguments: JSON.stringify({ path: 'second.txt', content: 'second\n' }) }] },
    { text: 'all done' },
  );
}

describe('snowpea run stops when its reader goes away (issue 29)', function () {
  this.timeout(120000);
  const world = cliWorld('sp-reader-gone');
  let slow: ScriptedServer;
  beforeEach(async () => {
    // 8 characters every 40 ms: the second round's 2,400 characters take about 12 s to stream.
    slow = await startScriptedServer({ chunkDelayMs: 40 });
  });
  afterEach(async () => slow.close());

  const args = () => ['--yes', '--base-url', slow.baseUrl, '--model', 'gpt-4o'];

  it('| head -c 50: the turn stops while the answer still streams, exits 141, no further request or tool, the completed round kept', async () => {
    const { ws, home } = world;
    scriptSlowSecondRound(slow);
    const run = await readThenClose(['run', 'write two files', ...args()], { cwd: ws, home }, (out) => Buffer.byteLength(out) >= 50);
    assert.ok(run.afterCloseMs !== undefined, `the reader closed after 50 bytes: ${run.out} ${run.stderr}`);
    assert.equal(run.code, 141, run.stderr);
    // The slow answer takes about 12 s to stream: the CLI left while it was still streaming (no clock read here).
    assert.equal(slow.chatsAnswered(), 1, 'the CLI exited before the second answer finished streaming');
    assert.equal(slow.chatRequests().length, 2, 'no request after the stop');
    assert.equal(fs.readFileSync(path.join(ws, 'first.txt'), 'utf8'), 'first\n');
    assert.ok(!fs.existsSync(path.join(ws, 'second.txt')), 'the stopped round\'s call never ran');
    assert.ok(!/EPIPE/.test(run.stderr), run.stderr);
    const id = /^session (\S+) \(stopped: the reader of stdout went away\)$/m.exec(run.stderr)?.[1];
    assert.ok(id, run.stderr);
    const messages = await storedMessages(home, id);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool'], 'the completed round, not the stopped one');
    assert.equal(messages[1].toolCalls?.[0].name, 'write_file');
  });

  it('--json | head: stops while the answer still streams, with 141, no second request, no session kept', async () => {
    const { ws, home } = world;
    slow.enqueue({ text: 'streaming slowly to a reader. '.repeat(80) }, { text: 'never asked for' });
    // The CLI learns that its reader is gone at its next write: the reader closes once the answer
    // streams (as `head -4` would), so the next delta follows at once.
    const run = await readThenClose(['run', 'talk slowly', '--json', ...args()], { cwd: ws, home }, (out) => /"type":"text\.delta".*\n/.test(out));
    assert.ok(run.afterCloseMs !== undefined, run.stderr);
    assert.equal((JSON.parse(run.out.split('\n')[0]) as { type: string }).type, 'turn.start');
    assert.equal(run.code, 141, run.stderr);
    assert.equal(slow.chatsAnswered(), 0, 'the CLI exited before the answer finished streaming');
    assert.equal(slow.chatRequests().length, 1);
    assert.match(run.stderr, /^stopped before a model round completed; no session was kept$/m);
    const store = await openStateDb({ file: path.join(home, 'state.db'), readOnly: true });
    try {
      assert.deepEqual(store.listSessions(), []);
    } finally {
      await store.close();
    }
  });

  it('Ctrl-C during a turn names the session on stderr, so it can be resumed', async () => {
    const { ws, home } = world;
    scriptSlowSecondRound(slow);
    const { child, exited } = startCli(['run', 'write two files', ...args()], { cwd: ws, home });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    await waitFor('the second round to stream', () => out.includes('streaming slowly'), 60000);
    child.kill('SIGINT');
    const run = await exited;
    assert.equal(run.code, 130, run.stderr);
    const id = /^session (\S+) \(stopped\)$/m.exec(run.stderr)?.[1];
    assert.ok(id, run.stderr);
    assert.deepEqual((await storedMessages(home, id)).map((m) => m.role), ['user', 'assistant', 'tool']);
    assert.ok(!fs.existsSync(path.join(ws, 'second.txt')));
  });

  it('commands that finish without a turn stay quiet into | head: tools list | head -3, sessions list | head -1 (larger than a pipe holds) exit 0', async () => {
    const { ws, home } = world;
    const store = await openStateDb({ file: path.join(home, 'state.db') });
    for (let i = 0; i < 1500; i++) store.createSession({ id: `s-${String(i).padStart(5, '0')}-${'x'.repeat(40)}`, title: `session number ${i} with a long enough title`, workspaceRoot: ws, mode: 'code', role: 'default' });
    await store.close();
    const tools = await intoHead(['tools', 'list'], 3, { cwd: ws, home });
    assert.equal(tools.code, 0, tools.stderr);
    assert.equal(tools.out.split('\n').length, 4, tools.out);
    assert.equal(tools.stderr, '');
    const sessions = await intoHead(['sessions', 'list'], 1, { cwd: ws, home });
    assert.equal(sessions.code, 0, sessions.stderr);
    assert.match(sessions.out, /^s-\d{5}-x+ /);
    assert.equal(sessions.stderr, '');
  });
});
