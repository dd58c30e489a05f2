import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '../../..');

type CodeServerScript = { sessionDir(name: string, workspace: string): string };

describe('issue 29: npm start keeps one profile per clone, whatever folder it opens', () => {
  it('the clone itself and another folder open in the same profile, in the shared cache and named for this clone', async () => {
    const m = (await import(pathToFileURL(path.join(root, 'scripts', 'code-server.mjs')).href)) as CodeServerScript;
    const forClone = m.sessionDir('start', root);
    const elsewhere = m.sessionDir('start', fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ws-')));
    assert.equal(elsewhere, forClone, '`npm start` and `npm start -- <folder>` share settings');
    assert.match(path.basename(forClone), /^start-[0-9a-f]{8}$/);
    assert.equal(path.basename(path.dirname(forClone)), 'profiles');
    assert.ok(!forClone.startsWith(root + path.sep), 'not inside the clone (VS Code would show the extension disabled there)');
    assert.notEqual(m.sessionDir('cli', root), forClone, 'the code-server.mjs start command has its own');
  });

  it('a workspace that holds the shared cache (the home folder, say) gets a temp folder named for the clone', async () => {
    const m = (await import(pathToFileURL(path.join(root, 'scripts', 'code-server.mjs')).href)) as CodeServerScript;
    const profile = m.sessionDir('start', root);
    const above = path.dirname(path.dirname(path.dirname(profile)));
    const dir = m.sessionDir('start', above);
    assert.equal(path.dirname(dir), os.tmpdir());
    assert.match(path.basename(dir), /^snowpea-code-server-start-[0-9a-f]{8}$/);
  });
});
