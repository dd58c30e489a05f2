import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedServer } from '../../fixtures/scripted-server';
import { cli, cliWorld } from './run-cli';

/** The red team's K5 and K6, as they ran them: a `run` turn, then `sessions restore ID --to 1 --yes`. */
describe('snowpea sessions restore and the repository\'s .gitignore (red team N6, CLI)', function () {
  this.timeout(60000);
  const world = cliWorld('sp-cli-n6');
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  const model = () => ['--base-url', server.baseUrl, '--model', 'gpt-4o'];
  beforeEach(() => ({ server, ws, home } = world));

  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };
  async function sessionId(): Promise<string> {
    return (JSON.parse((await cli(['sessions', 'list', '--json'], { cwd: ws, home })).stdout) as Array<{ id: string }>)[0].id;
  }

  it('N6 K5: a turn rewrites .gitignore; the restore neither lists nor deletes the never-committed .env and local database', async () => {
    write('.gitignore', '.env\ndata/\n');
    write('.env', 'STRIPE_KEY=sk_live_only_copy\n');
    write('data/app.sqlite', 'db\n');
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'write_file', arguments: JSON.stringify({ path: '.gitignore', content: 'node_modules/\n' }) }] }, { text: 'done' });
    const run = await cli(['run', 'tidy the ignore file', ...model(), '--yes'], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^changed 1 file: \.gitignore \+1 -2$/m, 'the turn changed only .gitignore');
    const done = await cli(['sessions', 'restore', await sessionId(), '--to', '1', '--yes'], { cwd: ws, home });
    assert.equal(done.code, 0, done.stderr);
    assert.doesNotMatch(done.stdout, /\.env|app\.sqlite/);
    assert.equal(fs.readFileSync(path.join(ws, '.env'), 'utf8'), 'STRIPE_KEY=sk_live_only_copy\n');
    assert.equal(fs.readFileSync(path.join(ws, 'data/app.sqlite'), 'utf8'), 'db\n');
    assert.equal(fs.readFileSync(path.join(ws, '.gitignore'), 'utf8'), '.env\ndata/\n');
  });

  it('N6 K6: with a .gitignore of `*`, a turn that runs `rm -rf src` can be restored', async () => {
    write('.gitignore', '*\n!.gitignore\n!README.md\n');
    write('README.md', '# r\n');
    write('src/main.ts', 'export const x = 1;\n');
    server.enqueue({ toolCalls: [{ id: 'c1', name: 'shell', arguments: JSON.stringify({ command: 'rm -rf src' }) }] }, { text: 'done' });
    const run = await cli(['run', 'clean up', ...model(), '--yes'], { cwd: ws, home });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!fs.existsSync(path.join(ws, 'src')));
    const done = await cli(['sessions', 'restore', await sessionId(), '--to', '1', '--yes'], { cwd: ws, home });
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /src\/main\.ts {2}\(deleted since, recreated\)/);
    assert.equal(fs.readFileSync(path.join(ws, 'src/main.ts'), 'utf8'), 'export const x = 1;\n');
  });

  it('N6: deletions are listed first, and files the checkpoint could not hold are named as left alone', async () => {
    write('a.txt', 'one\n');
    fs.writeFileSync(path.join(ws, 'big.bin'), Buffer.alloc(1.5 * 1024 * 1024, 1));
    server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'shell', arguments: JSON.stringify({ command: 'printf two > a.txt && printf new > zz-made.txt' }) }] },
      { text: 'done' },
    );
    assert.equal((await cli(['run', 'change things', ...model(), '--yes', '--settings', settingsFile({ checkpoints: { maxFileMB: 1 } })], { cwd: ws, home })).code, 0);
    fs.writeFileSync(path.join(ws, 'big.bin'), 'shrunk since\n');
    const refused = await cli(['sessions', 'restore', await sessionId(), '--to', '1'], { cwd: ws, home });
    assert.match(refused.stdout, /changes 2 files:\n {2}zz-made\.txt {2}\(added since, removed\)\n {2}a\.txt {2}\(modified, rewritten\)\nleft alone, as the checkpoint could not hold them .*:\n {2}big\.bin\n$/);
    const done = await cli(['sessions', 'restore', await sessionId(), '--to', '1', '--yes'], { cwd: ws, home });
    assert.match(done.stdout, /restored 2 files\n$/);
    assert.equal(fs.readFileSync(path.join(ws, 'big.bin'), 'utf8'), 'shrunk since\n');
  });

  function settingsFile(value: object): string {
    const file = path.join(home, 'user-settings.json');
    fs.writeFileSync(file, JSON.stringify(value));
    return file;
  }
});
