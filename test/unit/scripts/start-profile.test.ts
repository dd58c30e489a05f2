import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitUntil } from '../../fixtures/eventually';

const root = path.resolve(__dirname, '../../..');

type StartScript = { applyProfileDefaults(userDataDir: string, defaults?: Record<string, unknown>): void; PROFILE_DEFAULTS: Record<string, unknown> };
const load = async () => (await import(pathToFileURL(path.join(root, 'scripts', 'start.mjs')).href)) as StartScript;

describe("issue 29: npm start's code-server profile", () => {
  it("starts with code-server's own Chat hidden", async () => {
    const { applyProfileDefaults } = await load();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-profile-'));
    applyProfileDefaults(dir);
    const settings = JSON.parse(fs.readFileSync(path.join(dir, 'User', 'settings.json'), 'utf8'));
    assert.equal(settings['workbench.secondarySideBar.defaultVisibility'], 'hidden');
    assert.equal(settings['chat.disableAIFeatures'], true);
  });

  it("keeps the user's own values and comments, adding only what is missing", async () => {
    const { applyProfileDefaults } = await load();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-profile-'));
    const file = path.join(dir, 'User', 'settings.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{\n  // mine\n  "chat.disableAIFeatures": false,\n  "snowpea.model.baseUrl": "http://127.0.0.1:11434/v1",\n}\n');
    applyProfileDefaults(dir);
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /\/\/ mine/);
    assert.match(text, /"chat\.disableAIFeatures": false/);
    assert.match(text, /"snowpea\.model\.baseUrl": "http:\/\/127\.0\.0\.1:11434\/v1"/);
    assert.match(text, /"workbench\.secondarySideBar\.defaultVisibility": "hidden"/);
    const again = fs.readFileSync(file, 'utf8');
    applyProfileDefaults(dir);
    assert.equal(fs.readFileSync(file, 'utf8'), again, 'a second start changes nothing');
  });

  it('SIGINT to the npm process alone reaches the start script (npm start execs node: no shell in between keeps it)', async function () {
    this.timeout(30_000);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
    // The repository's own start script, with a stand-in for start.mjs that reports the signal it gets.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-npm-start-'));
    const stub = path.join(dir, 'scripts', 'start.mjs');
    fs.mkdirSync(path.dirname(stub));
    fs.writeFileSync(stub, "import { writeFileSync } from 'node:fs';\nwriteFileSync('ready', '');\nprocess.on('SIGINT', () => { writeFileSync('got', 'SIGINT'); process.exit(0); });\nsetInterval(() => {}, 1000);\n");
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'start-stand-in', version: '1.0.0', scripts: { start: manifest.scripts.start } }));
    const npm = spawn('npm', ['start', '--silent'], { cwd: dir, stdio: 'ignore', detached: true });
    const exited = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
    try {
      await waitUntil(() => fs.existsSync(path.join(dir, 'ready')), 'the start script to run', 20_000);
      process.kill(npm.pid!, 'SIGINT'); // npm's pid only, not its group
      await waitUntil(() => fs.existsSync(path.join(dir, 'got')), 'the start script to get SIGINT', 10_000);
      assert.equal(await exited, 0);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
});
