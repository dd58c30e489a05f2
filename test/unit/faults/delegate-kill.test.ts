import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/scripted-server';
import { cli, ensureCliBundle } from '../cli/run-cli';
import { readStored, startCli } from './kill-cli';

describe('P3: the CLI killed during a delegate_task child', function () {
  this.timeout(60000);
  let server: ScriptedServer;
  let ws: string;
  let home: string;
  before(ensureCliBundle);
  beforeEach(async () => {
    server = await startScriptedServer({ strict: true });
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-dkill-ws-')));
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-dkill-home-'));
  });
  afterEach(() => server.close());

  it('P3: (b) SIGKILL in the child\'s third round stores no parent call without its result; run --session ID "continue" exits 0 against a strict provider', async () => {
    const db = path.join(home, 'state.db');
    const run = startCli(['run', 'write f1.txt, then have a helper read it', '--base-url', server.baseUrl, '--model', 'gpt-4o', '--yes', '--state-db', db], { cwd: ws, home });
    const script = [
      { toolCalls: [{ id: 'call_1', name: 'write_file', arguments: '{"path":"f1.txt","content":"one\\n"}' }] },
      { toolCalls: [{ id: 'call_2', name: 'delegate_task', arguments: '{"task":"read f1.txt twice","agent":"explore"}' }] },
      { toolCalls: [{ id: 'child_1', name: 'read_file', arguments: '{"path":"f1.txt"}' }] },
      { toolCalls: [{ id: 'child_2', name: 'read_file', arguments: '{"path":"f1.txt"}' }] },
    ];
    server.setResponder((_body, index) => {
      if (index < script.length) return script[index]!;
      // The child's third request: its first two rounds are committed. Kill now, answer never.
      run.child.kill('SIGKILL');
      return new Promise(() => {});
    });
    const killed = await run.done;
    assert.equal(killed.signal, 'SIGKILL');
    assert.equal(server.chatRequests().length, 5);

    const stored = await readStored(db);
    assert.equal(stored.pairing, null, `stored parent transcript: ${JSON.stringify(stored.messages.map((m) => m.role))}`);
    assert.deepEqual(stored.messages.map((m) => m.role), ['user', 'assistant', 'tool']);

    server.setResponder(() => ({ text: 'f1.txt holds "one"; the helper was interrupted.' }));
    const resumed = await cli(['run', '--session', stored.id!, 'continue', '--base-url', server.baseUrl, '--model', 'gpt-4o', '--yes', '--state-db', db], { cwd: ws, home });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /the helper was interrupted/);
    assert.equal(server.rejected.length, 0, 'no request carried a call without its result');
  });
});
