/**
 * Reliability N7 and N13 as the report ran them, through the built CLI: a `run` turn that edits
 * files in nested repositories, and two `run`s with their own state.db editing one workspace at
 * once. The diff stat and `sessions restore --to N` say what they do not cover and whose changes
 * they include.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitUntil } from '../../fixtures/eventually';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from './run-cli';

function nestedRepo(dir: string, file: string): void {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  fs.writeFileSync(path.join(dir, file), 'one\n');
}

describe('the CLI says what a diff stat and a restore do not cover (reliability N7, N13)', function () {
  this.timeout(120_000);
  const world = cliWorld('sp-cli-outside');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  const model = () => ['--base-url', server.baseUrl, '--model', 'gpt-4o', '--yes'];
  beforeEach(() => ({ server, ws, home } = world));

  async function onlySession(db: string): Promise<string> {
    return (JSON.parse((await cli(['sessions', 'list', '--json', '--state-db', db], { cwd: ws, home })).stdout) as Array<{ id: string }>)[0].id;
  }

  it('N7: a turn editing a.txt, vendor/lib/lib.txt and nested/n.txt names the two nested repositories after its diff stat, and the restore names them as left as they are', async () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
    nestedRepo(path.join(ws, 'vendor/lib'), 'lib.txt');
    nestedRepo(path.join(ws, 'nested'), 'n.txt');
    const db = path.join(home, 'state.db');
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'shell', arguments: JSON.stringify({ command: 'echo two > a.txt && echo two > vendor/lib/lib.txt && echo two > nested/n.txt' }) }] }, { text: 'done' });
    const run = await cli(['run', 'edit three files', ...model(), '--state-db', db], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    const nested =
      '2 nested repositories changed during this turn: nested (1 file changed), vendor/lib (1 file changed); checkpoints do not cover nested repositories (each has its own git), so a restore leaves them as they are';
    assert.match(run.stderr, new RegExp(`^changed 1 file: a\\.txt \\+1 -1\\n${nested.replace(/[()]/g, '\\$&')}$`, 'm'));

    const done = await cli(['sessions', 'restore', await onlySession(db), '--to', '1', '--yes', '--state-db', db], { cwd: ws, home });
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /^ {2}a\.txt {2}\(modified, rewritten\)\n2 nested repositories changed since before turn 1 \("edit three files"\): nested \(1 file changed\), vendor\/lib \(1 file changed\); checkpoints do not cover nested repositories .* so a restore leaves them as they are\n/m);
    assert.match(done.stdout, /restored 1 file\n$/);
    assert.equal(fs.readFileSync(path.join(ws, 'nested/n.txt'), 'utf8'), 'two\n', 'left as it is, as said');
  });

  it('N13: two runs with their own state.db in one workspace at once: each diff stat names the other session, and a restore says it undoes the other\'s changes too', async () => {
    const dbA = path.join(home, 'a', 'state.db');
    const dbB = path.join(home, 'b', 'state.db');
    // A writes its file, then waits (inside its tool) until the test lets it go on, while B runs a whole turn.
    server.enqueue({ toolCalls: [{ id: 'a1', name: 'shell', arguments: JSON.stringify({ command: 'echo a > A-0.txt && touch a-started && while [ ! -f go ]; do sleep 0.05; done' }) }] });
    const runA = cli(['run', 'session A', ...model(), '--state-db', dbA], { cwd: ws, home });
    await waitUntil(() => fs.existsSync(path.join(ws, 'a-started')), 'A in its tool', 60_000);
    server.enqueue({ toolCalls: [{ id: 'b1', name: 'shell', arguments: JSON.stringify({ command: 'echo b > B-0.txt' }) }] }, { text: 'B done' });
    const runB = await cli(['run', 'session B', ...model(), '--state-db', dbB], { cwd: ws, home });
    assert.equal(runB.code, 0, runB.stderr);
    server.enqueue({ text: 'A done' });
    fs.writeFileSync(path.join(ws, 'go'), '');
    const a = await runA;
    assert.equal(a.code, 0, a.stderr);
    const idA = await onlySession(dbA);
    const idB = await onlySession(dbB);

    assert.match(runB.stderr, /^changed 1 file: B-0\.txt \+1 -0$/m);
    assert.match(runB.stderr, new RegExp(`^other Snowpea sessions were editing this workspace during this turn, so these files may include their changes: session ${idA} \\(pid \\d+, still running\\)$`, 'm'));
    assert.match(a.stderr, /^changed 4 files: A-0\.txt \+1 -0, B-0\.txt \+1 -0, a-started \+0 -0, go \+0 -0$/m);
    assert.match(a.stderr, new RegExp(`^other Snowpea sessions were editing this workspace during this turn, so these files may include their changes: session ${idB} \\(pid \\d+\\)$`, 'm'));

    const plan = await cli(['sessions', 'restore', idA, '--to', '1', '--state-db', dbA], { cwd: ws, home });
    assert.match(plan.stdout, new RegExp(`^other Snowpea sessions edited this workspace since before turn 1 \\("session A"\\); their changes to the files above are undone too: session ${idB} \\(pid \\d+\\)$`, 'm'));
  });
});
