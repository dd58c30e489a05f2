import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openStateDb } from '../../../extension/core/store';
import { foreignSqlite } from '../../fixtures/store-foreign';
import { cli, cliWorld } from './run-cli';

/** Every file under `dir` with its bytes, to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(d.parentPath ?? (d as unknown as { path: string }).path, d.name);
    out[path.relative(dir, p)] = d.isDirectory() ? '<dir>' : fs.readFileSync(p).toString('base64');
  }
  return out;
}

describe('cli: --state-db never touches what is not Snowpea’s (P1) and readers work during a run (P10)', function () {
  this.timeout(60_000);
  const world = cliWorld('sp-rel-store');
  let proj: string;
  beforeEach(() => {
    proj = path.join(world.ws, 'proj');
    fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
    fs.writeFileSync(path.join(proj, 'README.md'), '# proj\n');
    fs.writeFileSync(path.join(proj, 'src', 'main.ts'), 'export const x = 1;\n');
  });
  const runArgs = () => ['run', 'hi', '--base-url', world.server.baseUrl, '--model', 'gpt-4o', '--yes'];

  it('P1: --state-db "" and SNOWPEA_STATE_DB="" count as unset: the default database is used, the project is untouched', async () => {
    const before = snapshot(proj);
    const flag = await cli(['sessions', 'list', '--state-db', ''], { cwd: proj, home: world.home });
    assert.equal(flag.code, 0, flag.stderr);
    assert.match(flag.stdout, /no sessions yet/);
    world.server.enqueue({ text: 'hello' });
    const env = await cli(runArgs(), { cwd: proj, home: world.home, env: { SNOWPEA_STATE_DB: '' } });
    assert.equal(env.code, 0, env.stderr);
    assert.deepEqual(snapshot(proj), before);
    assert.ok(fs.statSync(path.join(world.home, 'state.db')).size > 0, 'the session went to SNOWPEA_HOME/state.db');
  });

  for (const spelling of ['.', '<project folder>', 'README.md']) {
    it(`P1: --state-db ${spelling} is refused with exit 1, for sessions list and for run, and nothing changes`, async () => {
      const arg = spelling === '<project folder>' ? proj : spelling;
      const before = snapshot(world.ws);
      const list = await cli(['sessions', 'list', '--state-db', arg], { cwd: proj, home: world.home });
      assert.equal(list.code, 1);
      assert.match(list.stderr, /is not a Snowpea session database \(.+\); refusing to touch it/);
      const run = await cli([...runArgs(), '--state-db', arg], { cwd: proj, home: world.home });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /refusing to touch it/);
      assert.equal(world.server.chatRequests().length, 0, 'nothing was sent');
      assert.deepEqual(snapshot(world.ws), before, 'every byte and name as it was');
    });
  }

  for (const withMeta of [true, false]) {
    it(`P1: a foreign SQLite file ${withMeta ? 'with' : 'without'} a meta table is refused by sessions list with exit 1 and left byte for byte`, async () => {
      const db = path.join(proj, 'app.sqlite');
      fs.writeFileSync(db, await foreignSqlite(withMeta));
      const before = snapshot(world.ws);
      const list = await cli(['sessions', 'list', '--state-db', 'app.sqlite'], { cwd: proj, home: world.home });
      assert.equal(list.code, 1);
      assert.ok(list.stderr.includes(`${db} is not a Snowpea session database (an SQLite database of another program); refusing to touch it`), list.stderr);
      assert.deepEqual(snapshot(world.ws), before);
    });
  }

  it('P10: sessions list, show and export work while a run holds the lock; run is refused with the lock file and the fix named', async () => {
    const file = path.join(world.home, 'state.db');
    const writer = await openStateDb({ file, idleMs: 0 });
    try {
      const s = writer.createSession({ title: 'held open', workspaceRoot: proj, mode: 'code', role: 'default' });
      writer.appendMessage(s.id, { turn: 1, round: 0, message: { role: 'user', content: 'still only in the journal' } });
      await writer.commitRound();
      const before = snapshot(world.home);
      const list = await cli(['sessions', 'list', '--json'], { cwd: proj, home: world.home });
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual(JSON.parse(list.stdout).map((r: { id: string }) => r.id), [s.id]);
      const show = await cli(['sessions', 'show', s.id], { cwd: proj, home: world.home });
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, /still only in the journal/);
      const exp = await cli(['sessions', 'export', s.id], { cwd: proj, home: world.home });
      assert.equal(exp.code, 0, exp.stderr);
      assert.equal(JSON.parse(exp.stdout).messages[0].message.content, 'still only in the journal');
      const run = await cli(runArgs(), { cwd: proj, home: world.home });
      assert.equal(run.code, 1);
      assert.ok(run.stderr.includes(`lock file ${file}.lock`), run.stderr);
      assert.match(run.stderr, /If no Snowpea is running \(after a crash or a restart\), delete .*state\.db\.lock and try again/);
      assert.equal(world.server.chatRequests().length, 0);
      assert.deepEqual(snapshot(world.home), before, 'the readers and the refused run changed nothing');
    } finally {
      await writer.close();
    }
  });
});
