import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliWorld } from './run-cli';

describe('CLI flags are checked strictly (reliability P9, P12, P17)', function () {
  this.timeout(60000);
  const world = cliWorld('sp-rel-flags');

  /** A settings file pointing at the scripted server: before the fix, a bad flag fell back to it (or to api.openai.com). */
  function serverSettings(): string {
    const file = path.join(world.home, 'server.json');
    fs.writeFileSync(file, JSON.stringify({ model: { baseUrl: world.server.baseUrl, name: 'gpt-4o' } }));
    return file;
  }

  it('P9: an invalid --base-url is a usage error and nothing is sent', async () => {
    const { ws, home, server } = world;
    const settings = serverSettings();
    for (const bad of ['not a url', '', `ftp://127.0.0.1:${server.port}/v1`]) {
      const run = await cli(['run', 'hi', '--yes', '--settings', settings, '--base-url', bad], { cwd: ws, home });
      assert.equal(run.code, 1, `--base-url ${JSON.stringify(bad)}: ${run.stderr}`);
      assert.match(run.stderr, /^snowpea: --base-url must be the http\(s\) URL of an OpenAI-compatible endpoint/m);
      assert.ok(run.stderr.includes(`(got ${JSON.stringify(bad)}: `), run.stderr);
      assert.doesNotMatch(run.stderr, /api\.openai\.com|ENOTFOUND|retrying/);
    }
    assert.equal(server.requests.length, 0);
  });

  it('P9: an invalid OPENAI_BASE_URL is refused the same way; an ftp:// one in a settings file too', async () => {
    const { ws, home, server } = world;
    const settings = serverSettings();
    const env = await cli(['run', 'hi', '--yes', '--settings', settings], { cwd: ws, home, env: { OPENAI_BASE_URL: 'localhost:11434' } });
    assert.equal(env.code, 1);
    assert.match(env.stderr, /snowpea: OPENAI_BASE_URL must be the http\(s\) URL .*got "localhost:11434": it must start with http:\/\/ or https:\/\//);
    const ftp = path.join(home, 'ftp.json');
    fs.writeFileSync(ftp, JSON.stringify({ model: { baseUrl: `ftp://127.0.0.1:${server.port}/v1` } }));
    const file = await cli(['run', 'hi', '--yes', '--settings', ftp], { cwd: ws, home });
    assert.equal(file.code, 1);
    assert.match(file.stderr, /model\.baseUrl from --settings .*ftp\.json is not usable: it must start with http:\/\/ or https:\/\//);
    assert.doesNotMatch(file.stderr + env.stderr, /api\.openai\.com|retrying/);
    assert.equal(server.requests.length, 0);
  });

  it('P12: --max-rounds outside 1..10000 or not an integer is refused with the text given', async () => {
    const { ws, home, server } = world;
    for (const raw of ['0', '-1', 'abc', '1.5', '1e9', '10001', '']) {
      const run = await cli(['run', 'hi', `--max-rounds=${raw}`, '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
      assert.equal(run.code, 1, `--max-rounds=${raw}`);
      assert.ok(run.stderr.includes(`snowpea: --max-rounds must be an integer from 1 to 10000 (got ${raw})\n`), run.stderr);
    }
    assert.equal(server.requests.length, 0);
    server.enqueue({ text: 'one round is enough' });
    const ok = await cli(['run', 'hi', '--max-rounds', '10000', '--base-url', server.baseUrl, '--model', 'gpt-4o'], { cwd: ws, home });
    assert.equal(ok.code, 0, ok.stderr);
  });

  it('P17: --settings naming a folder says it is a folder', async () => {
    const { ws, home } = world;
    fs.mkdirSync(path.join(ws, 'conf'));
    const run = await cli(['tools', 'list', '--settings', 'conf'], { cwd: ws, home });
    assert.equal(run.code, 0);
    assert.match(run.stderr, /--settings conf is a folder; give the settings file/);
    assert.doesNotMatch(run.stderr, /not found/);
  });

  it('P17: sessions frob x names the unknown command, not the id', async () => {
    const { ws, home } = world;
    const run = await cli(['sessions', 'frob', 'x'], { cwd: ws, home });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /unknown sessions command frob: use list, show, export, delete, checkpoints, restore or compact/);
    assert.doesNotMatch(run.stderr, /no session/);
  });
});
