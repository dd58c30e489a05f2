import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '../../..');

describe('issue 18: npm start keeps per-clone state', () => {
  it('a session opened on the clone itself gets a temp folder named for this clone, not one every clone shares', async () => {
    const m = (await import(pathToFileURL(path.join(root, 'scripts', 'code-server.mjs')).href)) as { sessionDir(name: string, workspace: string): string };
    const inside = m.sessionDir('start', root);
    assert.equal(path.dirname(inside), os.tmpdir());
    assert.match(path.basename(inside), /^snowpea-code-server-start-[0-9a-f]{8}$/);
    assert.equal(m.sessionDir('start', root), inside, 'stable for the clone');
    // A folder that does not hold the clone (the clone itself may live under the temp folder).
    const elsewhere = m.sessionDir('start', fs.mkdtempSync(path.join(os.tmpdir(), 'sp-ws-')));
    assert.equal(elsewhere, path.join(root, '.vscode-test', 'start'), 'another folder: the clone\'s own .vscode-test');
  });
});
