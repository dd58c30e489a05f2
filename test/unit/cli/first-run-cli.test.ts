import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { groupRank } from '../../../extension/core/tools/deferred';
import { cli, cliWorld, type Run } from './run-cli';

/** No key from any source: no OPENAI_API_KEY (empty counts as unset), no endpoint from the environment. */
const NO_KEY = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

/** The lines the CLI said as errors (`snowpea: ...`), not notes or warnings. */
const errorLines = (r: Run) => r.stderr.split('\n').filter((l) => /^snowpea: /.test(l));

async function closedPort(): Promise<number> {
  const spare = http.createServer();
  await new Promise<void>((r) => spare.listen(0, '127.0.0.1', () => r()));
  const port = (spare.address() as AddressInfo).port;
  await new Promise<void>((r) => spare.close(() => r()));
  return port;
}

/** The three places a key comes from, each named. */
function assertNamesKeySources(line: string, home: string): void {
  assert.match(line, /--api-key-file FILE/);
  assert.match(line, /--api-key - \(stdin\)/);
  assert.match(line, /OPENAI_API_KEY/);
  assert.ok(line.includes(path.join(home, 'credentials.json')), `names the credentials file: ${line}`);
}

describe('the CLI\'s first minutes: honest errors (issue 18)', function () {
  this.timeout(90000);
  const world = cliWorld('sp-first-run');

  async function sessionIds(): Promise<string[]> {
    const list = await cli(['sessions', 'list', '--json'], { cwd: world.ws, home: world.home });
    assert.equal(list.code, 0, list.stderr);
    return (JSON.parse(list.stdout) as Array<{ id: string }>).map((r) => r.id);
  }

  it('issue 18 (no key): run against the default endpoint with no key says so in one line at once, naming --api-key, OPENAI_API_KEY and the credentials file', async () => {
    const { ws, home } = world;
    for (const json of [false, true]) {
      const run = await cli(['run', 'hi', ...(json ? ['--json'] : [])], { cwd: ws, home, env: NO_KEY });
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.stdout, '', 'no turn started');
      const lines = run.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0], /^snowpea: no API key is set for https:\/\/api\.openai\.com\/v1: /);
      assertNamesKeySources(lines[0], home);
      assert.match(lines[0], /nothing was sent$/);
      assert.ok(!/retrying/.test(run.stderr));
    }
    assert.deepEqual(await sessionIds(), [], 'no session was made');
  });

  it('issue 18 (no key): a local endpoint that needs no key keeps working without one', async () => {
    const { ws, home, server } = world;
    server.enqueue({ text: 'hello from a keyless server' });
    const run = await cli(['run', 'hi', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home, env: NO_KEY });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /hello from a keyless server/);
    assert.equal(server.chatRequests().length, 1);
  });

  it('issue 18 (401): a 401 names --api-key, OPENAI_API_KEY and the credentials file, once, without retries; with no key it says none was sent', async () => {
    const { ws, home, server } = world;
    server.enqueue({ fault: { status: 401, message: 'Missing credentials' } });
    const keyless = await cli(['run', 'hi', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home, env: NO_KEY });
    assert.equal(keyless.code, 1);
    assert.equal(server.chatRequests().length, 1, 'a 401 is not retried');
    const lines = errorLines(keyless);
    assert.equal(lines.length, 1, keyless.stderr);
    assert.match(lines[0], /^snowpea: Authentication failed \(HTTP 401\) at the model endpoint .*: no API key was sent, and this endpoint needs one; the server said: Missing credentials; give one with /);
    assertNamesKeySources(lines[0], home);

    server.enqueue({ fault: { status: 401, message: 'Incorrect API key' } });
    const keyed = await cli(['run', 'hi', '--json', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(keyed.code, 1);
    assert.equal(server.chatRequests().length, 2);
    const keyedLines = errorLines(keyed);
    assert.equal(keyedLines.length, 1, keyed.stderr);
    assert.match(keyedLines[0], /check the API key for this endpoint; the server said: Incorrect API key; give one with /);
    assertNamesKeySources(keyedLines[0], home);
    assert.ok(!keyed.stderr.includes('sk-cli-secret'), 'the key itself is never shown');
    const event = keyed.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; message?: string }).find((e) => e.type === 'error');
    assert.equal(`snowpea: ${event?.message}`, keyedLines[0], 'the --json error event carries the same words');
  });

  it('issue 18 / P14 (errors print once): a persistent 500 with no retries left, in human and --json output, is one error line', async () => {
    const { ws, home, server } = world;
    const settings = path.join(home, 'no-retries.json');
    fs.writeFileSync(settings, JSON.stringify({ model: { maxRetries: 0 } }));
    for (const json of [false, true]) {
      server.enqueue({ fault: { status: 500, message: 'upstream exploded' } });
      const run = await cli(['run', 'hi', ...(json ? ['--json'] : []), '--settings', settings, '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
      assert.equal(run.code, 1);
      const lines = errorLines(run);
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0], /^snowpea: Server error \(HTTP 500\) .*upstream exploded/);
      assert.equal(run.stderr.split('upstream exploded').length - 1, 1, `the server's words appear once: ${run.stderr}`);
    }
    assert.equal(server.chatRequests().length, 2);
  });

  it('issue 18 (empty sessions): a run whose first request fails keeps no session; a failed later turn keeps the session', async () => {
    const { ws, home, server } = world;
    const settings = path.join(home, 'no-retries.json');
    fs.writeFileSync(settings, JSON.stringify({ model: { maxRetries: 0 } }));
    const args = ['--settings', settings, '--base-url', server.baseUrl, '--model', 'gpt-4o'];
    server.enqueue({ fault: { status: 500, message: 'down' } });
    const failed = await cli(['run', 'first try', ...args], { cwd: ws, home });
    assert.equal(failed.code, 1);
    assert.ok(!/^session /m.test(failed.stderr), `no session id is offered for resuming: ${failed.stderr}`);
    assert.deepEqual(await sessionIds(), []);
    const human = await cli(['sessions', 'list'], { cwd: ws, home });
    assert.equal(human.stdout, `no sessions yet in ${ws}\n`);

    server.enqueue({ text: 'first answer' });
    const ok = await cli(['run', 'second try', ...args], { cwd: ws, home });
    assert.equal(ok.code, 0, ok.stderr);
    const id = /^session (\S+)$/m.exec(ok.stderr)?.[1];
    assert.ok(id, ok.stderr);
    assert.deepEqual(await sessionIds(), [id]);

    server.enqueue({ fault: { status: 500, message: 'down again' } });
    const later = await cli(['run', 'more', '--session', id, ...args], { cwd: ws, home });
    assert.equal(later.code, 1);
    assert.deepEqual(await sessionIds(), [id], 'a resumed session is kept whatever its new turn did');
    assert.equal(server.chatRequests().length, 3);
  });

  it('issue 18 (usage): snowpea with no command prints usage on stderr and exits 2; --help still exits 0', async () => {
    const { ws, home } = world;
    const bare = await cli([], { cwd: ws, home });
    assert.equal(bare.code, 2);
    assert.equal(bare.stdout, '');
    assert.match(bare.stderr, /Usage:\n\s+snowpea run "prompt"/);
    const help = await cli(['--help'], { cwd: ws, home });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage:/);
  });

  it('issue 18 (tools list): Core first, then the deferred groups in the Tools tree\'s order', async () => {
    const { ws, home } = world;
    const text = await cli(['tools', 'list'], { cwd: ws, home });
    assert.equal(text.code, 0, text.stderr);
    const headings = text.stdout.split('\n').filter((l) => l && !l.startsWith(' '));
    assert.match(headings[0], /^Core \(\d+, eager\)$/);
    const deferred = headings.slice(1).map((h) => {
      const m = /^(\S+) \(\d+, deferred\)$/.exec(h);
      assert.ok(m, h);
      return m[1];
    });
    assert.ok(deferred.length >= 3, text.stdout);
    assert.deepEqual(deferred, [...deferred].sort((a, b) => groupRank(a) - groupRank(b) || a.localeCompare(b)));
    assert.deepEqual(deferred.slice(0, 4), ['browser', 'git', 'media', 'memory'], 'built-in groups in the order of the Deferred line');

    // The --json rows come in the same order: eager tools first, then each deferred group.
    const rows = JSON.parse((await cli(['tools', 'list', '--json'], { cwd: ws, home })).stdout) as Array<{ name: string; group: string; deferred: boolean }>;
    const firstDeferred = rows.findIndex((r) => r.deferred);
    assert.ok(rows.slice(firstDeferred).every((r) => r.deferred), 'eager rows come first');
    assert.deepEqual([...new Set(rows.slice(firstDeferred).map((r) => r.group))], deferred);

    // A tool made eager (tools.eager) is listed under Core, as in the tree.
    fs.mkdirSync(path.join(ws, '.snowpea'), { recursive: true });
    const gitTool = rows.find((r) => r.group === 'git')!.name;
    fs.writeFileSync(path.join(ws, '.snowpea', 'settings.json'), JSON.stringify({ tools: { eager: [gitTool] } }));
    const moved = await cli(['tools', 'list'], { cwd: ws, home });
    assert.equal(moved.code, 0, moved.stderr);
    const core = moved.stdout.split(/\n(?=\S)/)[0];
    assert.match(core, new RegExp(`^  ${gitTool} `, 'm'), moved.stdout);
  });

  it('issue 18 (refused): nothing listening on a loopback port fails at once with a clear message, no retries, no session', async () => {
    const { ws, home } = world;
    const port = await closedPort();
    const run = await cli(['run', 'hi', '--json', '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(run.code, 1);
    const events = run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string });
    assert.equal(events.filter((e) => e.type === 'retry').length, 0, 'not retried');
    const lines = errorLines(run);
    assert.deepEqual(lines, [`snowpea: Nothing is listening at http://127.0.0.1:${port}/v1 — is the server running? (connection refused; model "gpt-4o")`]);
    assert.deepEqual(await sessionIds(), []);
  });

  it('issue 18 (bad port): a port fetch refuses gets the same plain, one-line, unretried answer', async () => {
    const { ws, home } = world;
    const run = await cli(['run', 'hi', '--base-url', 'http://127.0.0.1:6000/v1', '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(run.code, 1);
    assert.ok(!/retrying/.test(run.stderr), run.stderr);
    const lines = errorLines(run);
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0], /^snowpea: Cannot connect to http:\/\/127\.0\.0\.1:6000\/v1: port 6000 is one Node's fetch never connects to \(a "bad port"\) — run the server on another port/);
    assert.ok(!/fetch failed/.test(run.stderr));
  });
});
