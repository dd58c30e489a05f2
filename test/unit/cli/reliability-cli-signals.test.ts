import assert from 'node:assert/strict';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from './run-cli';
import { killAll, processesWith, startCli, waitFor } from './cli-process';

/** A sleep duration no other process on the machine has, to find the tool's processes by. */
const uniqueSleep = (base: number) => `${base}.${process.pid}${Math.floor(Math.random() * 1000)}`;

/** Every assistant tool call in the request is answered by a tool message. */
function assertNoOrphanCall(body: { messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }> }): void {
  const answered = new Set(body.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
  const calls = body.messages.flatMap((m) => m.tool_calls ?? []);
  assert.ok(calls.length > 0, 'the interrupted call is in the resumed transcript');
  for (const c of calls) assert.ok(answered.has(c.id), `tool call ${c.id} has a result`);
}

describe('CLI stop signals end every tool process (reliability P7)', function () {
  this.timeout(90000);
  const world = cliWorld('sp-rel-sig');
  let leftovers: number[] = [];
  afterEach(() => killAll(leftovers));

  /** Starts a turn whose shell tool runs `command`, waits until `needle` runs, sends `sig`; returns the exit and the session id. */
  async function interrupt(server: ScriptedServer, command: string, needle: string, sig: NodeJS.Signals) {
    const { ws, home } = world;
    server.enqueue({ toolCalls: [{ id: 'call_sleep', name: 'shell', arguments: JSON.stringify({ command }) }] });
    const { child, exited } = startCli(['run', 'wait a while', '--json', '--yes', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    await waitFor(`${needle} to start`, () => processesWith(needle).length > 0);
    leftovers = processesWith(needle);
    child.kill(sig);
    const run = await exited;
    const sessionId = (JSON.parse(run.stdout.split('\n')[0]) as { sessionId: string }).sessionId;
    return { run, sessionId, survivors: processesWith(needle) };
  }

  async function assertResumes(server: ScriptedServer, sessionId: string): Promise<void> {
    const { ws, home } = world;
    const show = await cli(['sessions', 'show', sessionId], { cwd: ws, home });
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /shell/);
    server.enqueue({ text: 'resumed fine' });
    const before = server.requests.length;
    const resumed = await cli(['run', 'continue', '--session', sessionId, '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /resumed fine/);
    assertNoOrphanCall(server.requests[before].body);
  }

  it('P7: Ctrl-C during a TERM-ignoring `sleep` exits 130 and leaves no process behind', async () => {
    const dur = uniqueSleep(41);
    const { run, sessionId, survivors } = await interrupt(world.server, `trap "" TERM; sleep ${dur}`, `sleep ${dur}`, 'SIGINT');
    assert.equal(run.code, 130, run.stderr);
    assert.deepEqual(survivors, [], 'the TERM-ignoring sleep was killed before the CLI exited');
    await assertResumes(world.server, sessionId);
  });

  it('P7: SIGTERM during `bash -c "sleep; echo"` exits 143 with the whole tree gone and the round recorded', async () => {
    const dur = uniqueSleep(25);
    const { run, sessionId, survivors } = await interrupt(world.server, `bash -c 'sleep ${dur}; echo x'`, `sleep ${dur}`, 'SIGTERM');
    assert.equal(run.code, 143, run.stderr);
    assert.deepEqual(survivors, []);
    assert.deepEqual(processesWith(`bash -c sleep ${dur}`), []);
    await assertResumes(world.server, sessionId);
  });

  it('P7: SIGHUP (the terminal closed) exits 129 with the whole tree gone and the round recorded', async () => {
    const dur = uniqueSleep(26);
    const { run, sessionId, survivors } = await interrupt(world.server, `bash -c 'sleep ${dur}; echo x'`, `sleep ${dur}`, 'SIGHUP');
    assert.equal(run.code, 129, run.stderr);
    assert.deepEqual(survivors, []);
    await assertResumes(world.server, sessionId);
  });

  it('P7: SIGTERM during tools call shell ends its process tree and exits 143', async () => {
    const { ws, home } = world;
    const dur = uniqueSleep(27);
    const { child, exited } = startCli(['tools', 'call', 'shell', '--args', JSON.stringify({ command: `trap "" TERM; sleep ${dur}` }), '--yes', '--json'], { cwd: ws, home });
    await waitFor('the sleep to start', () => processesWith(`sleep ${dur}`).length > 0);
    leftovers = processesWith(`sleep ${dur}`);
    child.kill('SIGTERM');
    const run = await exited;
    assert.equal(run.code, 143, run.stderr);
    assert.deepEqual(processesWith(`sleep ${dur}`), []);
  });

  it('P7: a second Ctrl-C exits at once and still kills the TERM-ignoring tree', async () => {
    const { ws, home, server } = world;
    const dur = uniqueSleep(28);
    server.enqueue({ toolCalls: [{ id: 'call_sleep', name: 'shell', arguments: JSON.stringify({ command: `trap "" TERM; sleep ${dur}` }) }] });
    const { child, exited } = startCli(['run', 'wait a while', '--json', '--yes', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    await waitFor('the sleep to start', () => processesWith(`sleep ${dur}`).length > 0);
    leftovers = processesWith(`sleep ${dur}`);
    child.kill('SIGINT');
    // The first one was handled (the call is reported cancelled) while the kill's grace runs.
    await waitFor('the cancelled result', () => out.includes('"type":"tool.result"'));
    child.kill('SIGINT');
    const run = await exited;
    assert.equal(run.code, 130, run.stderr);
    assert.deepEqual(processesWith(`sleep ${dur}`), []);
  });
});
