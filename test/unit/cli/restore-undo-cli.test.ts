import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from './run-cli';

/** Reliability N6 as the report ran it (`wskinds.mjs`, "user edited"), through the built CLI. */
describe('snowpea sessions restore can be undone (reliability N6, CLI)', function () {
  this.timeout(60000);
  const world = cliWorld('sp-cli-undo');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  beforeEach(() => ({ server, ws, home } = world));
  const file = (rel: string) => fs.readFileSync(path.join(ws, rel), 'utf8');

  it('N6: restore --to 1 after the user\'s own edits; sessions checkpoints lists "before restore to 1", and --to u1 brings their work back', async () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'aye\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'bee\n');
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'write_file', arguments: JSON.stringify({ path: 'a.txt', content: 'agent\n' }) }] }, { text: 'Done.' });
    const run = await cli(['run', 'edit a', '--base-url', server.baseUrl, '--model', 'gpt-4o', '--yes'], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    const id = (JSON.parse((await cli(['sessions', 'list', '--json'], { cwd: ws, home })).stdout) as Array<{ id: string }>)[0].id;
    // The user's own work after the turn.
    fs.writeFileSync(path.join(ws, 'b.txt'), 'bee, edited by me\n');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'my notes\n');

    const done = await cli(['sessions', 'restore', id, '--to', '1', '--yes'], { cwd: ws, home });
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /notes\.txt {2}\(added since, removed\)/);
    assert.match(done.stdout, new RegExp(`kept the files as they were in restore point u1 \\(to undo this restore: snowpea sessions restore ${id} --to u1\\)\\nrestored 3 files\\n$`));
    assert.equal(file('b.txt'), 'bee\n');
    assert.ok(!fs.existsSync(path.join(ws, 'notes.txt')));

    const list = await cli(['sessions', 'checkpoints', id], { cwd: ws, home });
    assert.equal(list.code, 0, list.stderr);
    const rows = list.stdout.trim().split('\n').slice(1);
    assert.match(rows[0], /^ {3}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}0 files changed since\s+edit a$/);
    assert.match(rows[1], /^ {2}u1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}3 files changed since\s+before restore to 1$/);

    const undo = await cli(['sessions', 'restore', id, '--to', 'u1', '--yes'], { cwd: ws, home });
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /^restoring .* to just before the restore to 1 \(restore point u1\) changes 3 files:/);
    assert.match(undo.stdout, /restored 3 files\n$/);
    assert.equal(file('a.txt'), 'agent\n');
    assert.equal(file('b.txt'), 'bee, edited by me\n');
    assert.equal(file('notes.txt'), 'my notes\n');

    const bad = await cli(['sessions', 'restore', id, '--to', 'u9', '--yes'], { cwd: ws, home });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, new RegExp(`session ${id} has no restore point u9 \\(see: snowpea sessions checkpoints ${id}\\)`));
  });
});
